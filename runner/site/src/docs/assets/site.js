// The site's one script (hcl-conformance docs): an old case address
// (index.html#FILE::NAME) leads to the case, and search.html searches the
// index assets/search-index.js, in this copy of the site, with no network.
// The page of a suite file by its id, `suite/PART/PART.html`, each part
// of the id a safe segment as docs/html.rs (segment) makes it: ASCII
// letters, digits, `-`, `_` and `.` but a leading one kept, every other
// byte of its UTF-8 written `~XX`.
function hclSuitePage(id) {
  var segment = function (name) {
    var bytes = new TextEncoder().encode(name), out = "";
    for (var i = 0; i < bytes.length; i++) {
      var c = String.fromCharCode(bytes[i]);
      if (/[A-Za-z0-9_-]/.test(c) || (c === "." && i > 0)) out += c;
      else out += "~" + (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16).toUpperCase();
    }
    return out || "~";
  };
  return "suite/" + id.split("/").map(segment).join("/") + ".html";
}
(function () {
  "use strict";
  var root = document.body.getAttribute("data-root") || "";
  var hash = decodeURIComponent(location.hash.slice(1));
  if (/(^|\/)index\.html$|\/$/.test(location.pathname) && root === "" && hash.indexOf("::") > 0) {
    location.replace(hclSuitePage(hash.split("::")[0]) + location.hash);
    return;
  }
  var results = document.getElementById("results");
  if (!results || !window.HCL_SEARCH) return;
  var query = new URLSearchParams(location.search).get("q") || "";
  var input = document.getElementById("q");
  input.value = query;
  input.focus();
  var status = document.getElementById("search-status");
  var words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return;
  var fragment = function (id) { return encodeURIComponent(id).replace(/%2F/g, "/").replace(/%3A/g, ":"); };
  var link = function (e) {
    if (e[0] === "file") return hclSuitePage(e[1]);
    if (e[0] === "case") return hclSuitePage(e[1].split("::")[0]) + "#" + fragment(e[1]);
    return "spec/" + e[1].split(".")[0] + ".html#" + fragment(e[1]);
  };
  var order = { section: 0, file: 1, requirement: 3, case: 2, note: 4 };
  var found = [], entries = [];
  window.HCL_SEARCH.forEach(function (entry) {
    entries.push(entry);
    // A file's cases, a section's requirements (docs/pages.rs, search_index).
    (entry[4] || []).forEach(function (c) {
      if (entry[0] === "section") {
        entries.push(["requirement", c[0], c[2] || "", entry[1].split(" \u00a7 ").pop() + " " + c[1]]);
        return;
      }
      var named = typeof c === "string" ? [c, ""] : c;
      entries.push(["case", entry[1] + "::" + named[0], "", named[1]]);
    });
  });
  entries.forEach(function (entry) {
    var title = entry[1].toLowerCase(), text = entry[3].toLowerCase(), score = 0;
    for (var i = 0; i < words.length; i++) {
      if (title.indexOf(words[i]) >= 0) score += 2;
      else if (text.indexOf(words[i]) >= 0) score += 1;
      else return;
    }
    found.push([score, entry]);
  });
  found.sort(function (a, b) { return b[0] - a[0] || order[a[1][0]] - order[b[1][0]]; });
  status.textContent = found.length + " results for \u201c" + query + "\u201d" + (found.length > 300 ? " (the first 300)" : "") + ".";
  var list = document.createElement("ol");
  found.slice(0, 300).forEach(function (f) {
    var e = f[1], li = document.createElement("li"), what = document.createElement("span"), a = document.createElement("a");
    li.className = "hit-" + e[0];
    what.className = "what"; what.textContent = e[0];
    a.href = root + (e[2] || link(e)); a.textContent = e[1];
    li.appendChild(what); li.appendChild(a);
    if (e[3]) {
      var text = document.createElement("span");
      text.className = "text"; text.textContent = e[3].length > 200 ? e[3].slice(0, 200) + "\u2026" : e[3];
      li.appendChild(text);
    }
    list.appendChild(li);
  });
  results.appendChild(list);
})();
// Links built from compact references (docs/mod.rs, script_links, which
// the site's link check reads the same way): a case reference
// <a class=c>FILE::NAME</a>, a requirement reference <a class=r>ID</a> (to
// spec/SHORT.html, SHORT the id's first segment), a file's list of cases
// <li data-f="FILE">NAME, NAME</li> (led by the file's name, linked), a
// case's requirement ids
// <p class=rs>ID ID</p>; each requirement of a spec page and each case of a
// suite page linked to its own anchor; then, on a suite page, the list of
// cases, each requirement shown with its text (which the page quotes once
// at its end) and the implementations' verdicts.
(function () {
  var root = document.body.getAttribute("data-root") || "";
  var fragment = function (id) { return encodeURIComponent(id).replace(/%2F/g, "/").replace(/%3A/g, ":"); };
  var caseHref = function (id) { return root + hclSuitePage(id.split("::")[0]) + "#" + fragment(id); };
  var items = function (text) { return text.split(/[\s,]+/).filter(Boolean); };
  var link = function (href, text) {
    var a = document.createElement("a");
    a.href = href; a.textContent = text;
    return a;
  };
  document.querySelectorAll("a.c").forEach(function (a) { a.href = caseHref(a.textContent.trim()); });
  document.querySelectorAll("a.r").forEach(function (a) {
    var id = a.textContent.trim();
    a.href = root + "spec/" + id.split(".")[0] + ".html#" + fragment(id);
  });
  document.querySelectorAll("div.req[id] > p.rid").forEach(function (p) {
    var a = link("#" + fragment(p.parentNode.id), p.firstChild.textContent.trim());
    a.className = "self";
    p.replaceChild(a, p.firstChild);
    p.insertBefore(document.createTextNode(" "), a.nextSibling);
  });
  document.querySelectorAll("[data-f]").forEach(function (list) {
    var file = list.getAttribute("data-f"), names = items(list.textContent);
    list.textContent = "";
    list.appendChild(link(root + hclSuitePage(file), file));
    list.appendChild(document.createTextNode(": "));
    names.forEach(function (name, i) {
      if (i) list.appendChild(document.createTextNode(", "));
      list.appendChild(link(caseHref(file + "::" + name), name));
    });
  });
  document.querySelectorAll("p.rs").forEach(function (p) {
    var ul = document.createElement("ul");
    ul.className = "reqs";
    items(p.textContent).forEach(function (id) {
      var li = document.createElement("li"), text = document.getElementById("r:" + id);
      li.appendChild(link("#" + fragment("r:" + id), id));
      if (text) {
        // The heading of its document and section is the nearest before it.
        var heading = text.previousElementSibling, doc = document.createElement("span");
        while (heading && heading.className !== "doc") heading = heading.previousElementSibling;
        doc.className = "doc";
        doc.textContent = heading ? heading.textContent : "";
        li.appendChild(document.createTextNode(" "));
        li.appendChild(doc);
        li.appendChild(text.querySelector("blockquote").cloneNode(true));
      }
      ul.appendChild(li);
    });
    p.parentNode.replaceChild(ul, p);
  });
  var cases = document.querySelectorAll("section[id*='::']");
  cases.forEach(function (c) {
    var h = c.querySelector("h3"), name = h.firstChild, a = link("#" + fragment(c.id), name.textContent.trim());
    a.className = "self";
    h.replaceChild(a, name);
    h.insertBefore(document.createTextNode(" "), a.nextSibling);
  });
  var toc = document.getElementById("cases");
  if (toc) {
    var list = document.createElement("ol");
    cases.forEach(function (c) {
      var li = document.createElement("li");
      li.appendChild(link("#" + fragment(c.id), c.id.split("::")[1]));
      list.appendChild(li);
    });
    toc.appendChild(list);
  }
  // Implementations' verdicts (assets/verdicts.js: per file, for each case
  // in the page's order, its row of verdicts): one line for each verdict
  // and reason, naming the implementations that gave it.
  var results = window.HCL_VERDICTS;
  if (!results) return;
  cases.forEach(function (c, n) {
    var file = results.files[c.id.split("::")[0]];
    var verdicts = file && results.rows[file[n]];
    if (!verdicts) return;
    var lines = [], list = document.createElement("ul"), div = document.createElement("div");
    verdicts.forEach(function (v, i) {
      if (v < 0) return;
      if (!lines[v]) lines[v] = [];
      lines[v].push(results.implementations[i]);
    });
    lines.forEach(function (names, v) {
      var verdict = results.verdicts[v], li = document.createElement("li"), b = document.createElement("b");
      li.className = verdict[0] === "passed" ? "p" : verdict[0] === "unsupported" ? "u" : "f";
      b.textContent = verdict[0];
      li.appendChild(b);
      li.appendChild(document.createTextNode(" " + names.join(", ")));
      if (verdict[1]) {
        var why = document.createElement("i");
        why.textContent = verdict[1];
        li.appendChild(document.createTextNode(": "));
        li.appendChild(why);
      }
      if (verdict[2]) li.appendChild(document.createTextNode(" (known failure)"));
      list.appendChild(li);
    });
    var h = document.createElement("h4");
    h.textContent = "Implementations";
    div.className = "verdicts";
    div.appendChild(h);
    div.appendChild(list);
    c.appendChild(div);
  });
})();
