/* Spotter training charts on uPlot (vendored in static/uplot). Reads the JSON that the page put
   in <script type="application/json"> elements; no build step. */
(function () {
  "use strict";
  function data(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }
  function width(el) { return Math.max(280, el.clientWidth || 320); }
  function days(dates) {
    return dates.map(function (d) { return Date.parse(d + "T12:00:00Z") / 1000; });
  }
  function split(values, projected, wantProjected) {
    // the projected part repeats the last real point so the dashed line joins the solid one
    return values.map(function (v, i) {
      if (wantProjected) return projected[i] || projected[i + 1] ? v : null;
      return projected[i] ? null : v;
    });
  }
  function fitness() {
    var el = document.getElementById("fitness-chart");
    var c = data("fitness-data");
    if (!el || !c || !window.uPlot) return;
    var bars = uPlot.paths.bars({ size: [0.6, 12] });
    var line = function (label, color, values, dash) {
      return { label: label, stroke: color, width: 2, dash: dash, spanGaps: false, scale: "y",
               values: function (u, v) { return v; } , _v: values };
    };
    var series = [{}, { label: "Load", fill: "rgba(95,107,122,0.25)", stroke: "rgba(95,107,122,0.6)",
                        paths: bars, scale: "load" }];
    var values = [days(c.dates), c.load];
    [["Fitness", "#1f6feb", c.ctl], ["Fatigue", "#d4380d", c.atl], ["Form", "#1a7f37", c.tsb]]
      .forEach(function (s) {
        series.push({ label: s[0], stroke: s[1], width: 2, scale: "y" });
        values.push(split(s[2], c.projected, false));
        series.push({ label: s[0] + " (plan)", stroke: s[1], width: 2, dash: [6, 4], scale: "y" });
        values.push(split(s[2], c.projected, true));
      });
    new uPlot({
      width: width(el), height: 300, series: series,
      scales: { x: { time: true }, load: { range: function (u, lo, hi) { return [0, hi * 3]; } } },
      axes: [{}, { scale: "y" }, { scale: "load", side: 1, grid: { show: false } }],
    }, values, el);
  }
  function streams() {
    var el = document.getElementById("stream-charts");
    var s = data("stream-data");
    if (!el || !s || !s.t || !window.uPlot) return;
    var names = { hr: ["Heart rate (bpm)", "#d4380d"], speed: ["Speed (m/s)", "#1f6feb"],
                  power: ["Power (W)", "#7a3ee8"], alt: ["Altitude (m)", "#1a7f37"] };
    Object.keys(names).forEach(function (key) {
      if (!s[key]) return;
      var box = document.createElement("div");
      box.className = "stream-chart";
      el.appendChild(box);
      new uPlot({
        width: width(el), height: 160,
        series: [{ label: "min", value: function (u, v) { return v == null ? "" : (v / 60).toFixed(1); } },
                 { label: names[key][0], stroke: names[key][1], width: 1.5 }],
        scales: { x: { time: false } },
        axes: [{ values: function (u, vals) { return vals.map(function (v) { return Math.round(v / 60) + "′"; }); } }, {}],
      }, [s.t, s[key]], box);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { fitness(); streams(); });
})();
