// The text a reader sees in one language (arguments[0]: "zh" or "en") that belongs to the
// other: returned as a list (empty: the page reads in one language). Code, outputs, pictures,
// the switch's own buttons and quoted Chinese titles (:zh:`...`, .dt-cite) are not prose.
// In English, any visible Han character outside them is stray; in Chinese, a visible phrase
// of four English words with no Han, outside an element marked lang="en"; in both, a visible
// element of the other language (its spans, its tab of a tab set, lang=... marks).
const lang = arguments[0], other = lang === "zh" ? "en" : "zh";
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const CODE = "pre, code, .sphx-glr-script-out, .cell_output, .dt-cite, .dt-lang-btn, .highlight, .dt-diagram, svg, script, style, noscript, .MathJax, mjx-container, .math";
const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length) && getComputedStyle(el).visibility !== "hidden";
const stray = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const t = n.nodeValue.trim(), el = n.parentElement;
  if (!t || !el || el.closest(CODE) || !visible(el)) continue;
  if (lang === "en" && HAN.test(t)) stray.push(t);
  if (lang === "zh" && !HAN.test(t) && /[A-Za-z]{2,}( +[A-Za-z,.'’()]+){3,}/.test(t) && !el.closest('[lang="en"]:not(html)')) stray.push(t);
}
const shownOther = Array.from(document.querySelectorAll(`.dt-${other}, label[data-sync-id="${other}"] + .sd-tab-content, [lang="${other}"]:not(html):not(.dt-lang-btn):not(.dt-cite)`))
  .filter((el) => visible(el) && el.textContent.trim()).map((el) => "ELEMENT: " + el.textContent.trim().slice(0, 80));
return stray.map((t) => t.slice(0, 100)).concat(shownOther);
