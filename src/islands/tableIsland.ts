/**
 * Progressive enhancement for tables marked `data-sortable`: click a heading to sort, type to filter,
 * pick a verdict. Without JavaScript the table is complete and readable as rendered.
 */
export function enhanceTables(doc: Document): void {
  const table = doc.querySelector<HTMLTableElement>("table[data-sortable]");
  if (!table) return;
  const body = table.tBodies[0];
  if (!body) return;
  const tools = doc.querySelector<HTMLElement>("[data-table-tools]");
  const filter = tools?.querySelector<HTMLInputElement>("[data-filter]");
  const verdict = tools?.querySelector<HTMLSelectElement>("[data-verdict-filter]");
  if (tools) tools.hidden = false;

  const apply = () => {
    const q = (filter?.value ?? "").trim().toLowerCase();
    const v = verdict?.value ?? "";
    for (const row of Array.from(body.rows)) {
      const show = (!q || (row.textContent ?? "").toLowerCase().includes(q)) && (!v || row.dataset.verdict === v);
      row.hidden = !show;
    }
  };
  filter?.addEventListener("input", apply);
  verdict?.addEventListener("change", apply);

  const heads = Array.from(table.tHead?.rows[0]?.cells ?? []);
  heads.forEach((th, col) => {
    const button = doc.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = th.textContent;
    th.textContent = "";
    th.append(button);
    button.addEventListener("click", () => {
      const asc = th.getAttribute("aria-sort") !== "ascending";
      for (const h of heads) h.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      const numeric = th.dataset.type === "number";
      const key = (row: HTMLTableRowElement) => {
        const cell = row.cells[col];
        return cell?.dataset.sort ?? cell?.textContent?.trim() ?? "";
      };
      const rows = Array.from(body.rows).sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        if (numeric) {
          // Missing values ("—") sort last in both directions: unknown is not zero.
          if (ka === "" || kb === "") return ka === kb ? 0 : ka === "" ? 1 : -1;
          return (Number(ka) - Number(kb)) * (asc ? 1 : -1);
        }
        return ka.localeCompare(kb) * (asc ? 1 : -1);
      });
      body.append(...rows);
    });
  });
}
