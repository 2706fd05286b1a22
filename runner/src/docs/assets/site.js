// The site's one script (hcl-conformance docs): an old case address
// (index.html#FILE::NAME) leads to the case, and search.html searches the
// index assets/search-index.js, in this copy of the site, with no network.
(function () {
  "use strict";
  var root = document.body.getAttribute("data-root") || "";
  var hash = decodeURIComponent(location.hash.slice(1));
  if (/(^|\/)index\.html$|\/$/.test(location.pathname) && root === "" && hash.indexOf("::") > 0) {
    location.replace("suite/" + hash.split("::")[0] + ".html" + location.hash);
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
    if (e[0] === "case") return "suite/" + e[1].split("::")[0] + ".html#" + fragment(e[1]);
    return "spec/" + e[1].split(".")[0] + ".html#" + fragment(e[1]);
  };
  var order = { section: 0, file: 1, requirement: 3, case: 2, note: 4 };
  var found = [];
  window.HCL_SEARCH.forEach(function (entry) {
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
// A suite page: its cases listed from their headings, and each case's
// requirements shown with their texts, which the page quotes once at its end.
(function () {
  var toc = document.getElementById("cases");
  if (toc) {
    var list = document.createElement("ol");
    document.querySelectorAll("section.case").forEach(function (c) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = c.querySelector("h3 a").getAttribute("href");
      a.textContent = c.querySelector("h3 a").textContent;
      li.appendChild(a);
      list.appendChild(li);
    });
    toc.appendChild(list);
  }
  // Implementations' verdicts (assets/verdicts.js): one line for each
  // verdict and reason, naming the implementations that gave it.
  var results = window.HCL_VERDICTS;
  document.querySelectorAll("div.verdicts").forEach(function (div) {
    var id = div.parentNode.id.split("::"), cases = results && results.files[id[0]];
    var verdicts = cases && cases[id[1]];
    if (!verdicts) return;
    var lines = [], list = document.createElement("ul");
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
    div.appendChild(h);
    div.appendChild(list);
  });
  document.querySelectorAll("ul.reqs a[href^='#r:']").forEach(function (a) {
    var text = document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
    if (!text) return;
    a.parentNode.appendChild(document.createTextNode(" "));
    a.parentNode.appendChild(text.querySelector(".doc").cloneNode(true));
    a.parentNode.appendChild(text.querySelector("blockquote").cloneNode(true));
  });
})();
