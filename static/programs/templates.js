/* The template's propagation page: each athlete's engine dry run, loaded from the server (one
   request per athlete) on arrival and again when a "Use the template's value" choice changes.
   The server renders the card; this file only fetches and places it. */
(function () {
  "use strict";
  var form = document.getElementById("propagate-form");
  if (!form) { return; }
  var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;

  function dryRun(card) {
    var pane = card.querySelector(".tp-dry-run");
    var body = new URLSearchParams();
    card.querySelectorAll(".tp-overwrite:checked").forEach(function (box) {
      body.append(box.name, box.value);
    });
    card.dataset.ready = "0";
    return fetch(card.dataset.dryRunUrl, {
      method: "POST",
      headers: { "X-CSRFToken": csrf, "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(),
      credentials: "same-origin"
    }).then(function (response) {
      return response.ok ? response.text() : Promise.reject(response.status);
    }).then(function (html) {
      pane.innerHTML = html;
    }, function () {
      pane.innerHTML = "<p class=\"errornote\">The dry run could not be loaded; reload the page.</p>";
    }).then(function () { card.dataset.ready = "1"; });
  }

  form.querySelectorAll(".tp-card").forEach(function (card) {
    dryRun(card);
    card.querySelectorAll(".tp-overwrite").forEach(function (box) {
      box.addEventListener("change", function () { dryRun(card); });
    });
  });
})();
