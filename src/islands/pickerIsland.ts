/**
 * Compare picker (progressive enhancement): ticking bundles enables a button that opens the pre-built
 * page comparing exactly them; selections without a page get the reason (model, workload or measure
 * version differ). Everything is read from data attributes (the messages too, in the page's language:
 * `data-msgs`); text is set with textContent only.
 */
export function enhancePicker(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>("form[data-picker]");
  if (!form) return;
  const index = JSON.parse(form.dataset.index ?? "{}") as Record<string, string>;
  const go = form.querySelector<HTMLButtonElement>("[data-go]")!;
  const msg = form.querySelector<HTMLElement>("[data-msg]")!;
  const msgs = JSON.parse(form.dataset.msgs ?? "{}") as Record<"oneMore" | "models" | "keys" | "noPage", string>;
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
        why: msgs.oneMore
      };
    const models = new Set(picked.map((b) => b.dataset.model));
    const keys = new Set(picked.map((b) => b.dataset.key));
    if (models.size > 1) return {url: null, why: msgs.models};
    if (keys.size > 1)
      return {
        url: null,
        why: msgs.keys
      };
    return {
      url: null,
      why: msgs.noPage
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
