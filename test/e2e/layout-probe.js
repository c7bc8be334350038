// Layout and contrast probes run inside the panel page (test-only; passed to page.evaluate as a function
// body by test/e2e/layout-check.mjs). Plain browser JS, no imports: everything it needs is in the DOM.
// Returns { overflow, midWord, hidden, contrast, statusWords, feedTop, blankRows } for the page as rendered.
(() => {
  const vw = document.documentElement.clientWidth;
  const problems = { overflow: [], midWord: [], hidden: [], contrast: [], statusWords: [], blankRows: [], feedTop: null, docWidth: 0 };
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  // Parent in the flattened (composed) tree: slotted content sits inside its slot, shadow roots inside their host.
  const up = (el) => el.assignedSlot ?? el.parentElement ?? (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  /** An ancestor that scrolls or clips sideways (a table scrolling inside itself), or null. */
  const sidewaysBox = (el) => {
    for (let p = up(el); p && p !== document.body && p !== document.documentElement; p = up(p)) {
      const ox = getComputedStyle(p).overflowX;
      if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') return p;
    }
    return null;
  };

  // 1. Nothing sticks out sideways: the document does not scroll, and no element reaches past the viewport
  //    unless a container that scrolls inside itself holds it (that container must fit).
  problems.docWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  if (problems.docWidth > vw + 1) problems.overflow.push(`document is ${problems.docWidth} px wide in a ${vw} px view`);
  for (const el of document.body.querySelectorAll('*')) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right <= vw + 1 && r.left >= -1) continue;
    const box = sidewaysBox(el);
    if (box) {
      const b = box.getBoundingClientRect();
      if (b.right <= vw + 1 && b.left >= -1) continue;
    }
    problems.overflow.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} px in a ${vw} px view`);
    if (problems.overflow.length > 12) break;
  }

  // 2. Cells and values a reader needs are on screen, not clipped by a scroll box or cut off.
  const needed = [
    '.slider-value',
    '.whatif-diff td.after',
    'table.candidates td:nth-child(4)',
    'table.candidates td:nth-child(5)',
    '.permissions td.why',
    '.permissions td.tool',
    'table.claims td:nth-child(3)',
  ];
  for (const sel of needed) {
    for (const el of document.querySelectorAll(sel)) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      const box = sidewaysBox(el);
      const limit = box ? Math.min(vw, box.getBoundingClientRect().right) : vw;
      if (r.right > limit + 1 || r.left < -1) problems.hidden.push(`${sel} at ${Math.round(r.left)}..${Math.round(r.right)} px, visible up to ${Math.round(limit)} px`);
      else if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') problems.hidden.push(`${sel} is cut (${el.scrollWidth} px of text in ${el.clientWidth} px)`);
    }
  }

  // 3. No word broken mid-word: each run of letters and digits lies on one line, unless the run alone is wider
  //    than the block it wraps in (then no layout could keep it whole).
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !visible(parent) || parent.closest('pre, script, style')) continue;
    for (const m of node.data.matchAll(/[\p{L}\p{N}]{2,}/gu)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter((x) => x.width > 0);
      const tops = new Set(rects.map((x) => Math.round(x.top)));
      if (tops.size <= 1) continue;
      let block = parent;
      while (block && getComputedStyle(block).display.startsWith('inline')) block = up(block);
      const s = getComputedStyle(block);
      const inner = block.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      const width = rects.reduce((sum, x) => sum + x.width, 0);
      if (width <= inner + 1) problems.midWord.push(`"${m[0]}" broken over ${tops.size} lines in ${name(parent)} (${Math.round(width)} px word, ${Math.round(inner)} px line)`);
      if (problems.midWord.length > 12) break;
    }
  }

  // 4. Contrast of every piece of text against what is behind it (WCAG 2 relative luminance).
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a),
    a: 1,
  });
  const backgroundOf = (el) => {
    const layers = [];
    for (let p = el; p; p = up(p)) {
      const c = parse(getComputedStyle(p).backgroundColor);
      if (c && c.a > 0) {
        layers.push(c);
        if (c.a >= 1) break;
      }
    }
    let bg = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) bg = over(layer, bg);
    return bg;
  };
  const lum = ({ r, g, b }) => {
    const f = (v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const seen = new Set();
  const statusRe = /\b(auto|review|escalate|error|execute_tool|use_tools|gather_context|partner_model|ask_user|stop|eligible|blocked|not judged|read_only|external_write|destructive|unknown|verified|contradicted|unsupported|ready|starting|stopped)\b/;
  const tw = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = tw.nextNode(); node; node = tw.nextNode()) {
    const el = node.parentElement;
    const text = node.data.trim();
    if (!el || !text || seen.has(el) || !visible(el) || el.closest('script, style')) continue;
    seen.add(el);
    const s = getComputedStyle(el);
    const fg = parse(s.color);
    if (!fg) continue;
    const bg = backgroundOf(el);
    const c = ratio(over(fg, bg), bg);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    const need = large ? 3 : 4.5;
    const status = statusRe.exec(text);
    if (status) problems.statusWords.push({ word: status[1], where: name(el), ratio: Math.round(c * 100) / 100 });
    if (c < need) problems.contrast.push(`"${text.slice(0, 40)}" in ${name(el)}: ${c.toFixed(2)}:1 < ${need}:1 (${s.color} on rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)}))`);
  }

  // 5. The feed starts above the fold in the sidebar.
  const first = document.querySelector('#feed-list .feed-row');
  if (first) problems.feedTop = Math.round(first.getBoundingClientRect().top);

  // 6. Agents: no tall blank rows (a row much taller than what it holds).
  for (const tr of document.querySelectorAll('.permissions tbody tr')) {
    if (!visible(tr)) continue;
    const rowH = tr.getBoundingClientRect().height;
    let content = 0;
    for (const td of tr.children) {
      range.selectNodeContents(td);
      const rects = [...range.getClientRects()].filter((x) => x.height > 0);
      if (!rects.length) continue;
      const top = Math.min(...rects.map((x) => x.top));
      const bottom = Math.max(...rects.map((x) => x.bottom));
      content = Math.max(content, bottom - top);
    }
    // Stacked rows hold two lines (tick box + tool, then why): compare with all content of the row.
    range.selectNodeContents(tr);
    const all = [...range.getClientRects()].filter((x) => x.height > 0);
    const span = all.length ? Math.max(...all.map((x) => x.bottom)) - Math.min(...all.map((x) => x.top)) : 0;
    if (rowH > Math.max(content, span) + 16) problems.blankRows.push(`${tr.dataset.tool}: row ${Math.round(rowH)} px for ${Math.round(Math.max(content, span))} px of content`);
  }
  return problems;
})();
