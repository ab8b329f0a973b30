/** Natural log of the gamma function (Lanczos approximation, g = 7). */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Regularized lower incomplete gamma P(a, x) by series (x < a + 1) or continued fraction. */
export function regularizedGammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  const lg = logGamma(a);
  if (x < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 500; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-14) break;
    }
    return sum * Math.exp(-x + a * Math.log(x) - lg);
  }
  let b = x + 1 - a;
  let c = 1 / 1e-300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-14) break;
  }
  return 1 - Math.exp(-x + a * Math.log(x) - lg) * h;
}

/** CDF of the gamma distribution with shape k and rate β. */
export function gammaCdf(x: number, shape: number, rate: number): number {
  return x <= 0 ? 0 : regularizedGammaP(shape, rate * x);
}

/** Standard normal CDF (erfc by Abramowitz–Stegun 7.1.26 on |z|/√2; absolute error < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erfc = poly * Math.exp(-x * x);
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/**
 * Two-sided p-value of x under a gamma distribution (shape k, rate β): 2·min(F(x), 1 − F(x)). Above shape
 * 100 the Wilson–Hilferty cube-root normal approximation is used (the series needs ~√k terms there).
 */
export function gammaTwoSidedP(x: number, shape: number, rate: number): number {
  let f: number;
  if (shape <= 100) f = gammaCdf(x, shape, rate);
  else {
    const v = 1 / (9 * shape);
    f = normalCdf((Math.cbrt((x * rate) / shape) - (1 - v)) / Math.sqrt(v));
  }
  return Math.min(1, 2 * Math.min(f, 1 - f));
}
