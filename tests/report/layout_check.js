// Appended to a page by html_chromium.sh: finds the chart's text that
// overlaps other text or a dot, or leaves the chart, and a page wider than
// the window (report.html only: a chart alone keeps its own width). Writes
// what it found into the body's data-layout attribute ("[]": none).
(function () {
  const problems = [];
  const svg = document.querySelector('svg');
  const vb = svg.viewBox.baseVal;
  const box = (e) => { const b = e.getBBox(); return { x: b.x, y: b.y, r: b.x + b.width, b: b.y + b.height }; };
  const meets = (p, q) => p.x < q.r - 0.5 && q.x < p.r - 0.5 && p.y < q.b - 0.5 && q.y < p.b - 0.5;
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '');
  const dots = [...svg.querySelectorAll('circle')];
  const name = (e) => JSON.stringify(e.textContent.slice(0, 40));
  texts.forEach((t, i) => {
    const a = box(t);
    if (a.x < 0 || a.y < 0 || a.r > vb.width || a.b > vb.height) problems.push('outside the chart: ' + name(t));
    texts.slice(i + 1).forEach((u) => { if (meets(a, box(u))) problems.push('overlap: ' + name(t) + ' / ' + name(u)); });
    if (dots.some((d) => meets(a, box(d)))) problems.push('text over a dot: ' + name(t));
  });
  const page = svg.parentElement !== document.body; // report.html, not a chart on its own
  if (page && document.documentElement.scrollWidth > window.innerWidth + 1)
    problems.push('page wider than the window: ' + document.documentElement.scrollWidth + ' > ' + window.innerWidth);
  document.body.setAttribute('data-layout', JSON.stringify(problems));
})();
