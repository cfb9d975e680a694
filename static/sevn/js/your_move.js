/* How many turn-based tables wait for your move: the tab's title starts with it, "(2) SEVN".
   The page is drawn with it (#your-move-count, and the title); a signed-in person's socket
   (/ws/me/) swaps the element in again whenever the number changes, and the title follows. */

var COUNT = /\(\d+\) /;  // where the title says it (after the table's "● Your turn · ", if there)

function show() {
  var element = document.getElementById("your-move-count");
  if (!element) return;
  var count = Number(element.dataset.count || 0);
  var said = count > 0 ? "(" + count + ") " : "";
  var title = document.title;
  document.title = COUNT.test(title) ? title.replace(COUNT, said) : said + title;
}

// The element is a child of <body>, replaced whole by each message: watching body's own
// children (not the subtree) sees each replacement and nothing of the rest of the page.
new MutationObserver(function (changes) {
  var replaced = changes.some(function (change) {
    return Array.prototype.some.call(change.addedNodes, function (node) { return node.id === "your-move-count"; });
  });
  if (replaced) show();
}).observe(document.body, { childList: true });
