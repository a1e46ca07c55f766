// The evaluation graph under the replay: seat 0's expected score at every ply, from +1 (top:
// seat 0 wins) to -1 (bottom: seat 1 wins), drawn as an inline SVG from the analysis the
// server stored (games.replays.services.analysis_view). Proven stretches are drawn thick,
// the search's estimates thin; each marked move is a dot (a diamond when the mark is exact).
// Clicking or dragging on the graph moves the replay to that ply.
//
// Numbers written into the markup (coordinates) are always plain decimals with a point,
// whatever the page's language: they are SVG, not text for people.

const SVG_NS = "http://www.w3.org/2000/svg";
const PAD_X = 6;
const PAD_Y = 8;

/** A coordinate as SVG reads it: "12.5", never "12,5". */
export function coordinate(value) {
  return (Math.round(value * 10) / 10).toFixed(1);
}

function element(tag, attributes = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, typeof value === "number" ? coordinate(value) : String(value));
  }
  return node;
}

export class EvalGraph {
  /** `root`: the element to draw in; `onSelect(ply)`: called when a ply is clicked. */
  constructor(root, { label, onSelect }) {
    this.root = root;
    this.label = label;
    this.onSelect = onSelect;
    this.values = [];
    this.exact = [];
    this.marks = {};
    this.ply = 0;
    this.width = 0;
    this.dragging = false;
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(() => {
        if (this.values.length && this.root.clientWidth !== this.width) this.draw();
      }).observe(root);
    }
  }

  /** The analysis to draw: `values` and `exact` per ply, `marks` by ply. */
  show(values, exact, marks) {
    this.values = values || [];
    this.exact = exact || [];
    this.marks = marks || {};
    this.draw();
  }

  lastPly() {
    return Math.max(1, this.values.length - 1);
  }

  x(ply) {
    return PAD_X + (ply * (this.width - 2 * PAD_X)) / this.lastPly();
  }

  y(value) {
    return PAD_Y + ((1 - value) / 2) * (this.height - 2 * PAD_Y);
  }

  plyAt(clientX) {
    const box = this.svg.getBoundingClientRect();
    const share = (clientX - box.left - PAD_X) / Math.max(1, box.width - 2 * PAD_X);
    return Math.max(0, Math.min(this.values.length - 1, Math.round(share * this.lastPly())));
  }

  draw() {
    this.width = this.root.clientWidth || 600;
    this.height = this.width < 520 ? 96 : 132;
    const { width, height } = this;
    const svg = element("svg", {
      viewBox: `0 0 ${coordinate(width)} ${coordinate(height)}`,
      width,
      height,
      role: "img",
      "aria-label": this.label,
      class: "eval-svg",
      "data-testid": "eval-svg",
    });
    const title = element("title");
    title.textContent = this.label;
    svg.append(title, element("rect", { class: "eval-bg", x: 0, y: 0, width, height }));

    const points = this.values.map((value, ply) => [this.x(ply), this.y(value)]);
    if (points.length) {
      const line = points.map(([x, y], i) => `${i ? "L" : "M"}${coordinate(x)} ${coordinate(y)}`).join(" ");
      const bottom = coordinate(height);
      const area = `M${coordinate(points[0][0])} ${bottom} ${line.replace(/^M/, "L")} `
        + `L${coordinate(points[points.length - 1][0])} ${bottom} Z`;
      svg.append(element("path", { class: "eval-area", d: area }));
      svg.append(element("line", { class: "eval-mid", x1: 0, x2: width, y1: this.y(0), y2: this.y(0) }));
      svg.append(element("path", { class: "eval-line", d: line, "data-testid": "eval-line" }));
      // Proven stretches: segments whose two ends are both exact.
      const proven = [];
      for (let i = 1; i < points.length; i += 1) {
        if (this.exact[i - 1] && this.exact[i]) {
          proven.push(`M${coordinate(points[i - 1][0])} ${coordinate(points[i - 1][1])}`
            + ` L${coordinate(points[i][0])} ${coordinate(points[i][1])}`);
        }
      }
      for (let i = 0; i < points.length; i += 1) {
        const lone = this.exact[i] && !this.exact[i - 1] && !this.exact[i + 1];
        if (lone) proven.push(`M${coordinate(points[i][0] - 1.5)} ${coordinate(points[i][1])} h3`);
      }
      if (proven.length) {
        svg.append(element("path", { class: "eval-exact", d: proven.join(" "), "data-testid": "eval-exact" }));
      }
      for (const [key, mark] of Object.entries(this.marks)) {
        const ply = Number(key);
        if (!(ply >= 0 && ply < points.length)) continue;
        const [x, y] = points[ply];
        const common = {
          class: `eval-mark kind-${mark.kind} ${mark.exact ? "exact" : "estimate"}`,
          "data-testid": `graph-mark-${ply}`,
          "data-ply": String(ply),
          "data-kind": mark.kind,
          "data-exact": String(Boolean(mark.exact)),
        };
        const dot = mark.exact
          ? element("rect", { ...common, x: x - 4, y: y - 4, width: 8, height: 8,
            transform: `rotate(45 ${coordinate(x)} ${coordinate(y)})` })
          : element("circle", { ...common, cx: x, cy: y, r: 4.5 });
        svg.append(dot);
      }
    }
    this.cursor = element("line", { class: "eval-cursor", y1: 0, y2: height, "data-testid": "eval-cursor" });
    svg.append(this.cursor);
    svg.addEventListener("pointerdown", (event) => {
      this.dragging = true;
      if (svg.setPointerCapture) svg.setPointerCapture(event.pointerId);
      this.onSelect(this.plyAt(event.clientX));
    });
    svg.addEventListener("pointermove", (event) => {
      if (this.dragging) this.onSelect(this.plyAt(event.clientX));
    });
    const stop = () => { this.dragging = false; };
    svg.addEventListener("pointerup", stop);
    svg.addEventListener("pointercancel", stop);
    this.svg = svg;
    this.root.replaceChildren(svg);
    this.setPly(this.ply);
  }

  setPly(ply) {
    this.ply = ply;
    if (!this.cursor || !this.values.length) return;
    const x = this.x(Math.min(ply, this.values.length - 1));
    this.cursor.setAttribute("x1", coordinate(x));
    this.cursor.setAttribute("x2", coordinate(x));
    this.cursor.dataset.ply = String(ply);
  }
}
