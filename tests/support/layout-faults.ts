import type { Page } from 'playwright-core';

/**
 * What a reader sees as broken on the page as laid out now:
 *
 * - `brokenWords`: a word whose letters lie on two lines ("Abrechnungsrege|ln"). Measured from
 *   the text itself: a text node that spans one line box is skipped at once (one
 *   `Range.getClientRects` call); in one that wraps, each word's own rectangles are compared, and a
 *   word on two lines is broken unless the break follows a hyphen, soft hyphen, dash or slash (a
 *   break the text offers), or the browser hyphenates German (probed once per call) and the
 *   element asks for it (`hyphens: auto`): then the split is taken for a syllable with a drawn
 *   hyphen. Debian's Chromium has no hyphenation dictionaries, so there every other split counts.
 *   Machine strings (web addresses, e-mail addresses, hashes, codes) and text in `code`, `kbd`,
 *   `samp` and `pre` may break anywhere.
 * - `cutCells`: a table cell (or a phone card's value) whose content is wider than the cell, and a
 *   table that only shows all its columns by scrolling inside its box (`.table-scroll`).
 *
 * Each finding names the text, so a failing test says where to look.
 */
export interface LayoutFaults {
  brokenWords: string[];
  cutCells: string[];
}

export function layoutFaults(page: Page): Promise<LayoutFaults> {
  return page.evaluate(() => {
    const brokenWords: string[] = [];
    const cutCells: string[] = [];
    const range = document.createRange();
    const linesOf = (rects: DOMRectList | DOMRect[]) => {
      const tops: number[] = [];
      for (const r of rects) {
        if (r.width < 0.5 || r.height < 0.5) continue;
        // A new line starts below the previous line's middle (rectangles of one line may differ
        // by a pixel or two where fonts mix).
        if (!tops.some((top) => Math.abs(top - r.top) < r.height / 2)) tops.push(r.top);
      }
      return tops;
    };
    // Whether this browser hyphenates German at all: a long word in a box narrower than it.
    const probe = document.createElement('div');
    probe.lang = 'de';
    probe.style.cssText =
      'position:absolute;visibility:hidden;width:4em;hyphens:auto;overflow-wrap:normal;word-break:normal';
    probe.textContent = 'Silbentrennungsprobe';
    document.body.append(probe);
    range.selectNodeContents(probe.firstChild!);
    const canHyphenate = linesOf(range.getClientRects()).length > 1;
    probe.remove();
    const OFFERED_BREAK = /[-\u00AD\u2010\u2012\u2013\u2014/\u200B]/;
    const MACHINE = /[@/:_=#?\\]|\d[a-z]|[a-z]\d/i;

    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (!/\S\S/.test(text)) continue;
      const el = node.parentElement;
      if (!el || el.closest('code, kbd, samp, pre, script, style, noscript, svg')) continue;
      range.selectNodeContents(node);
      if (linesOf(range.getClientRects()).length < 2) continue;
      for (const match of text.matchAll(/\S+/g)) {
        const word = match[0];
        const start = match.index;
        if (word.length < 2) continue;
        range.setStart(node, start);
        range.setEnd(node, start + word.length);
        const lines = linesOf(range.getClientRects());
        if (lines.length < 2) continue;
        if (word.length >= 12 && MACHINE.test(word)) continue;
        // Where the second line begins: the first letter whose box lies below the first line.
        let at = 1;
        for (; at < word.length; at++) {
          range.setStart(node, start + at);
          range.setEnd(node, start + at + 1);
          const [box] = [...range.getClientRects()].filter((r) => r.width > 0);
          if (box && box.top > lines[0]! + box.height / 2) break;
        }
        if (OFFERED_BREAK.test(word[at - 1] ?? '')) continue;
        if (canHyphenate && getComputedStyle(el).hyphens === 'auto') continue;
        brokenWords.push(
          `"${word.slice(0, at)}|${word.slice(at)}" in <${el.tagName.toLowerCase()}>`,
        );
      }
    }

    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el as HTMLElement).innerText.trim().replace(/\s+/g, ' ').slice(0, 50)}"`;
    for (const box of document.querySelectorAll<HTMLElement>('.table-scroll')) {
      if (box.clientWidth > 0 && box.scrollWidth > box.clientWidth + 1)
        cutCells.push(
          `table scrolls inside its box: ${box.scrollWidth} > ${box.clientWidth} px (${describe(box.querySelector('caption, th') ?? box)})`,
        );
    }
    for (const cell of document.querySelectorAll<HTMLElement>('td, th, .cell-value')) {
      // Cells hidden but for screen readers (clipped to nothing) show nothing to cut.
      if (
        cell.clientWidth <= 1 ||
        cell.closest('.visually-hidden') ||
        getComputedStyle(cell).clip.startsWith('rect(0')
      )
        continue;
      if (cell.scrollWidth > cell.clientWidth + 1)
        cutCells.push(`${describe(cell)}: ${cell.scrollWidth} > ${cell.clientWidth} px`);
    }
    return { brokenWords, cutCells };
  });
}
