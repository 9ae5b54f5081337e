// Two small charts drawn as SVG by hand: a chart library (chart.js) would draw on a canvas, whose
// labels neither screen readers nor tests can read, and would weigh ten times this page. Labels
// here are text elements; each chart also gets an aria-label, and its numbers a table beside it.
// Sizes are in viewBox units; the SVG scales to its container's width (style.css).
import { s } from "./dom";

/** A step of 1, 2 or 5 times a power of ten that splits `max` into about `count` parts. */
function niceStep(max: number, count: number): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((step) => step >= raw)!;
}

/** A label cut to `length` characters; a cut one keeps the whole text in its tooltip. */
function label(text: string, length: number, attributes: Record<string, string | number>) {
  if (text.length <= length) return s("text", attributes, text);
  return s("text", attributes, s("title", {}, text), `${text.slice(0, length - 1)}…`);
}

export interface Bar {
  label: string;
  value: number;
  /** What is written at the bar's end, e.g. "3 h 05 min". */
  valueText: string;
}

/** Horizontal bars, one per row, with a value axis whose ticks read `${tick}${unit}`. */
export function barChart(bars: Bar[], description: string, unit: string): SVGSVGElement {
  const width = 600;
  const labelWidth = 185;
  const valueWidth = 100;
  const rowHeight = 30;
  const top = 6;
  const plotWidth = width - labelWidth - valueWidth;
  const height = top + bars.length * rowHeight + 26;
  const axisY = top + bars.length * rowHeight;

  const max = Math.max(...bars.map((bar) => bar.value));
  const step = niceStep(max, 5);
  const axisMax = Math.max(step, Math.ceil(max / step) * step);
  const x = (value: number) => labelWidth + (value / axisMax) * plotWidth;

  const chart = s("svg", { class: "chart bar-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": description });
  for (let tick = 0; tick <= axisMax + step / 2; tick += step) {
    chart.append(
      s("line", { class: "grid", x1: x(tick), x2: x(tick), y1: top, y2: axisY }),
      s("text", { class: "tick", x: x(tick), y: axisY + 18, "text-anchor": "middle" }, `${+tick.toFixed(2)}${unit}`),
    );
  }
  bars.forEach((bar, row) => {
    const y = top + row * rowHeight;
    chart.append(
      label(bar.label, 21, { class: "bar-label", x: labelWidth - 8, y: y + rowHeight / 2, "text-anchor": "end", "dominant-baseline": "middle" }),
      s("rect", { class: "bar", x: labelWidth, y: y + 6, width: Math.max(1, x(bar.value) - labelWidth), height: rowHeight - 12 }, s("title", {}, `${bar.label}: ${bar.valueText}`)),
      s("text", { class: "bar-value", x: x(bar.value) + 6, y: y + rowHeight / 2, "dominant-baseline": "middle" }, bar.valueText),
    );
  });
  return chart;
}

export interface Series {
  name: string;
  /** Names the CSS class of its line and legend swatch. */
  key: string;
  /** One per x label; null leaves a gap. */
  values: (number | null)[];
}

/** Lines over the same x labels (dates), a y axis of whole counts, a dot with a tooltip per value. */
export function lineChart(labels: string[], series: Series[], description: string): SVGSVGElement {
  const width = 600;
  const height = 260;
  // Room on the right for the last date label, centred on the last point.
  const margin = { left: 36, right: 28, top: 12, bottom: 36 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;

  const max = Math.max(0, ...series.flatMap((each) => each.values.map((value) => value ?? 0)));
  const step = Math.max(1, Math.round(niceStep(max, 5)));
  const axisMax = Math.max(step, Math.ceil(max / step) * step);
  const x = (index: number) => margin.left + (labels.length > 1 ? (index / (labels.length - 1)) * plotWidth : plotWidth / 2);
  const y = (value: number) => margin.top + plotHeight - (value / axisMax) * plotHeight;

  const chart = s("svg", { class: "chart line-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": description });
  for (let tick = 0; tick <= axisMax; tick += step) {
    chart.append(
      s("line", { class: "grid", x1: margin.left, x2: width - margin.right, y1: y(tick), y2: y(tick) }),
      s("text", { class: "tick", x: margin.left - 6, y: y(tick), "text-anchor": "end", "dominant-baseline": "middle" }, String(tick)),
    );
  }
  // About eight date labels fit; the last (today) is always among them.
  const every = Math.ceil(labels.length / 8);
  labels.forEach((text, index) => {
    if ((labels.length - 1 - index) % every !== 0) return;
    chart.append(s("text", { class: "tick x-label", x: x(index), y: height - margin.bottom + 20, "text-anchor": "middle" }, text));
  });
  for (const each of series) {
    let path = "";
    let pen = "M";
    const dots: SVGCircleElement[] = [];
    each.values.forEach((value, index) => {
      if (value === null) {
        pen = "M";
        return;
      }
      path += `${pen}${x(index).toFixed(1)},${y(value).toFixed(1)} `;
      pen = "L";
      dots.push(s("circle", { class: `dot series-${each.key}`, cx: x(index), cy: y(value), r: 3 }, s("title", {}, `${labels[index]}: ${value} ${each.name.toLowerCase()}`)));
    });
    chart.append(s("path", { class: `line series-${each.key}`, d: path.trim(), "data-series": each.name }), ...dots);
  }
  return chart;
}
