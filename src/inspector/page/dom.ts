// Building the page's elements: text always goes in as text (never as HTML), and numbers are written for people.

/** What an element may hold: nodes, or text (numbers too); nothing for null, undefined and false. */
type Child = Node | string | number | null | undefined | false;

/** An element's properties: its class, attributes, data attributes and click handler. */
interface ElementProps {
  readonly class?: string;
  readonly attrs?: Readonly<Record<string, string>>;
  readonly data?: Readonly<Record<string, string>>;
  readonly onClick?: (event: MouseEvent) => void;
}

/** An element with its props and children; strings become text nodes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: ElementProps | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props?.class !== undefined) element.className = props.class;
  for (const [name, value] of Object.entries(props?.attrs ?? {})) element.setAttribute(name, value);
  for (const [name, value] of Object.entries(props?.data ?? {})) element.dataset[name] = value;
  if (props?.onClick !== undefined) (element as HTMLElement).addEventListener("click", props.onClick);
  append(element, children);
  return element;
}

/** Appends children; strings as text. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A table from a header row and rows of cells. */
export function table(head: readonly string[], rows: readonly (readonly Child[])[], className = ""): HTMLTableElement {
  return el(
    "table",
    { class: className },
    el("thead", null, el("tr", null, ...head.map((cell) => el("th", { attrs: { scope: "col" } }, cell)))),
    el("tbody", null, ...rows.map((row) => el("tr", null, ...row.map((cell) => el("td", null, cell))))),
  );
}

/** Bytes as `812 B`, `4.1 KB`, `2.3 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A duration as `0.4 ms`, `12 ms`, `3.2 s`, `4 min 5 s`. */
export function formatMs(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A count with thousands separated: `12,345`. */
export function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

/** A time of day, `14:03:07`. */
export function formatClock(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString("en-GB", { hour12: false });
}
