// Tables in cell outputs, for reading in the book's column:
// 1. column and row names are often identifiers (t_min_us, traffic_vs_coalesced): a zero-width
//    break opportunity after each "_", "." and "/" lets them wrap there, so words such as
//    "reproduced" are never cut and identifiers still fit;
// 2. a table still wider than the column (many numeric columns, which never break) scrolls
//    sideways inside a box that says so. The browser check (tools/check_html.py) accepts a wide
//    table only inside such a box.
document.addEventListener("DOMContentLoaded", function () {
  var tables = document.querySelectorAll("div.cell_output table");
  tables.forEach(function (table) {
    table.querySelectorAll("th").forEach(function (th) {
      var walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      var node;
      while ((node = walker.nextNode())) {
        node.nodeValue = node.nodeValue.replace(/([_./])(?=\S)/g, "$1\u200B");
      }
    });
  });
  tables.forEach(function (table) {
    var holder = table.parentElement;
    if (!holder || holder.classList.contains("scroll-note")) return;
    if (table.getBoundingClientRect().width <= holder.clientWidth + 1) return;
    var box = document.createElement("div");
    box.className = "scroll-note";
    var note = document.createElement("p");
    note.className = "scroll-note-text";
    note.textContent = "This table is wider than the column: scroll sideways to see all of it.";
    holder.insertBefore(box, table);
    box.appendChild(note);
    box.appendChild(table);
  });
});
