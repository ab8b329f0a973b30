/**
 * Compare picker (progressive enhancement): ticking bundles enables a button that opens the pre-built
 * page comparing exactly them; selections without a page get the reason (model, workload or measure
 * version differ). Everything is read from data attributes; text is set with textContent only.
 */
export function enhancePicker(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>("form[data-picker]");
  if (!form) return;
  const index = JSON.parse(form.dataset.index ?? "{}") as Record<string, string>;
  const go = form.querySelector<HTMLButtonElement>("[data-go]")!;
  const msg = form.querySelector<HTMLElement>("[data-msg]")!;
  const zh = doc.documentElement.lang.startsWith("zh");
  const boxes = () => Array.from(form.querySelectorAll<HTMLInputElement>("input[type=checkbox]"));
  const target = (): {url: string | null; why: string} => {
    const picked = boxes().filter((b) => b.checked);
    if (picked.length === 0) return {url: null, why: ""};
    const key = picked
      .map((b) => b.value)
      .sort()
      .join("|");
    const url = index[key] ?? null;
    if (url) return {url, why: ""};
    if (picked.length === 1)
      return {
        url: null,
        why: zh
          ? "再选一个证据包（单个证据包的扫描对比需在 groups.yaml 中声明）。"
          : "Pick one more bundle (a one-bundle sweep comparison is declared in groups.yaml)."
      };
    const models = new Set(picked.map((b) => b.dataset.model));
    const keys = new Set(picked.map((b) => b.dataset.key));
    if (models.size > 1) return {url: null, why: zh ? "不可比：模型不同。" : "Not comparable: the models differ."};
    if (keys.size > 1)
      return {
        url: null,
        why: zh
          ? "不可比：负载指纹或测量口径版本不同。"
          : "Not comparable: the workload fingerprint or measure version differs."
      };
    return {
      url: null,
      why: zh
        ? "没有为这一组合预先生成页面：请打开包含它们的可比集合页面，或在 evidence/groups.yaml 中声明分组。"
        : "No pre-built page for this selection: open the comparable set that contains them, or declare a group in evidence/groups.yaml."
    };
  };
  const update = () => {
    const r = target();
    go.disabled = r.url === null;
    msg.textContent = r.why;
  };
  form.addEventListener("change", update);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const r = target();
    if (r.url) doc.location.href = r.url;
  });
  update();
}
