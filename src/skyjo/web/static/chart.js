// The chart of running totals, round by round, with the target's line: the scorepad's sheets
// (scorepad.js) and a finished game's end (ending.js) draw it alike. Drawn as SVG elements
// (never markup text); the players' lines take style.css's --series-N colours, each with its
// dots, and a legend names them with their totals (not by colour alone: each line's title
// says its player and values, the legend holds the numbers). A page adds a table for screen
// readers beside it where the numbers are not in view otherwise.
import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
// the players' lines: style.css's --series-N, 3:1 against the panel in either scheme (set by CSSOM)
const COLORS = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => `var(--series-${n})`);
const PAD = { left: 40, right: 16, top: 14, bottom: 28 };

function svg(tag, attrs = {}, text = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

/**
 * The chart: `names` the players, `series` each one's totals from 0 before the first round,
 * `target` the score that ends the game, `width` its width in CSS pixels (its height follows),
 * `words` its `title`, its accessible `label` and the `targetLine`'s label.
 */
export function totalsChart({ names, series, target, width, words }) {
  const all = series.flat();
  const low = Math.min(0, ...all);
  const high = Math.max(target, ...all);
  const height = Math.round(width * 0.46);
  const rounds = Math.max(0, ...series.map((values) => values.length - 1));
  const x = (n) => PAD.left + (n / Math.max(1, rounds)) * (width - PAD.left - PAD.right);
  const y = (v) => PAD.top + ((high - v) / (high - low || 1)) * (height - PAD.top - PAD.bottom);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "totals-chart", role: "img", "aria-label": words.label });
  chart.append(svg("title", {}, words.title));
  const step = niceStep((high - low) / 5);
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) {
    chart.append(svg("line", { x1: PAD.left, x2: width - PAD.right, y1: y(v), y2: y(v), class: "grid-line" }));
    chart.append(svg("text", { x: PAD.left - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, String(v)));
  }
  for (let n = 0; n <= rounds; n++) {
    if (rounds > 12 && n % Math.ceil(rounds / 12)) continue;
    chart.append(svg("text", { x: x(n), y: height - 8, class: "axis", "text-anchor": "middle" }, String(n)));
  }
  chart.append(svg("line", { x1: PAD.left, x2: width - PAD.right, y1: y(target), y2: y(target), class: "target-line" }));
  // the target's label at the left end of its line: every total starts at 0 there, while the
  // leading line reaches (or passes) the target at the right end, where it would cross the label
  chart.append(svg("text", { x: PAD.left + 4, y: y(target) - 5, class: "target-label", "text-anchor": "start" }, words.targetLine));
  series.forEach((values, i) => {
    const color = COLORS[i % COLORS.length];
    const points = values.map((v, n) => `${x(n)},${y(v)}`).join(" ");
    const line = svg("polyline", { points, fill: "none", "stroke-width": 2.5, class: "series", "data-player": i });
    line.style.stroke = color;
    line.append(svg("title", {}, `${names[i]}: ${values.slice(1).join(", ")}`));
    chart.append(line);
    values.forEach((v, n) => {
      const dot = svg("circle", { cx: x(n), cy: y(v), r: 3.2 });
      dot.style.fill = color;
      chart.append(dot);
    });
  });
  return chart;
}

/** The legend under a chart: each player's colour, name and total (`totals`, in `names`' order). */
export function legend(names, totals) {
  return h("ul", { class: "chart-legend" }, names.map((name, i) => h("li", {},
    swatch(COLORS[i % COLORS.length]), name, " ", h("b", {}, String(totals[i])))));
}

function swatch(color) {
  const mark = h("span", { class: "swatch", "aria-hidden": "true" });
  mark.style.background = color; // CSSOM, which the CSP allows (no style attribute in the markup)
  return mark;
}

function niceStep(raw) {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}
