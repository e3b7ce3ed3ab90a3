/* The chat page's own behaviour (htmx does the rest).
 *
 * - A streamed reply (htmx's SSE extension on the thinking bubble) whose event source is closed
 *   for good (the server said 204, or refused the connection) falls back to polling: the bubble is
 *   asked once to poll ("spotter:poll"), and the poll answers with a polling bubble or the reply.
 *   A dropped connection is not closed for good: the browser reconnects by itself and resumes
 *   after the last event it had (Last-Event-ID).
 * - When a coach reply lands (by its final event or by the poll), "spotter:reply" is dispatched on
 *   document.body with detail {messageId, id, failed}, once per reply (static/chat/tab-title.js
 *   counts them while the tab is in the background). The "taking too long" note is not a reply.
 * - Every data-feed-every seconds the page asks its conversation's feed for the messages no flow of
 *   the page fetches (a coach's post from the admin, a delivered reminder), appends the ones it
 *   doesn't show yet and announces each the same way.
 * - Every form that sends a message (the composer, a suggested reply) carries an idempotency key
 *   (input[data-message-key]). A fresh one is made whenever the form is armed (the page loads or
 *   comes back from the back-forward cache, the server swaps in a new form: after a send, or with an
 *   error). Sending the same text again (the answer was lost: a web process died, the network
 *   dropped) keeps the key, so the server answers with the message it already stored instead of
 *   storing a copy; sending another text from the same form takes a new key first.
 */
(function () {
  "use strict";

  document.addEventListener("htmx:sseError", function (event) {
    var bubble = event.target;
    var source = event.detail && event.detail.source;
    if (!bubble || !source || source.readyState !== EventSource.CLOSED) return;
    if (bubble.dataset.fellBack) return;
    bubble.dataset.fellBack = "1";
    source.close();
    htmx.trigger(bubble, "spotter:poll");
  });

  var announced = {};
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.matches || !elt.matches(".bubble-coach:not(.bubble-thinking):not(.bubble-overdue)")) return;
    announce(elt);
  });

  function announce(elt) {
    if (announced[elt.id]) return;
    announced[elt.id] = true;
    document.body.dispatchEvent(
      new CustomEvent("spotter:reply", {
        detail: {
          messageId: elt.id.replace("message-", ""),
          id: elt.id,
          failed: elt.classList.contains("bubble-error"),
        },
      })
    );
  }

  function newKey() {
    if (window.crypto.randomUUID) return window.crypto.randomUUID();
    // randomUUID is only there on https and localhost: a version 4 UUID from random bytes.
    var bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map
      .call(bytes, function (b) {
        return (b + 0x100).toString(16).slice(1);
      })
      .join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function armKeys(root) {
    var keys = Array.prototype.slice.call(root.querySelectorAll("input[data-message-key]"));
    if (root.matches && root.matches("input[data-message-key]")) keys.push(root);
    keys.forEach(function (key) {
      key.value = newKey();
      delete key.dataset.sentText;
    });
  }

  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.querySelectorAll) armKeys(elt);
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) armKeys(document);
  });
  // Capture: runs before htmx reads the form on its own submit listener.
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var key = form && form.querySelector && form.querySelector("input[data-message-key]");
      if (!key) return;
      var text = form.elements.text ? form.elements.text.value.trim() : "";
      if (key.dataset.sentText !== undefined && key.dataset.sentText !== text) key.value = newKey();
      key.dataset.sentText = text;
    },
    true
  );

  function followFeed() {
    var messages = document.getElementById("messages");
    if (!messages || !messages.dataset.feed) return;
    var every = parseFloat(messages.dataset.feedEvery) || 20;
    var busy = false;
    window.setInterval(function () {
      if (busy) return;
      busy = true;
      var url = messages.dataset.feed + "?after=" + encodeURIComponent(messages.dataset.feedAfter || "0");
      fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" } })
        .then(function (response) {
          if (response.status !== 200) return "";
          messages.dataset.feedAfter = response.headers.get("X-Feed-After") || messages.dataset.feedAfter;
          return response.text();
        })
        .then(function (html) {
          if (!html) return;
          var box = document.createElement("div");
          box.innerHTML = html;
          Array.prototype.slice.call(box.children).forEach(function (elt) {
            if (!elt.id || document.getElementById(elt.id)) return; // already on the page
            messages.appendChild(elt);
            htmx.process(elt);
            announce(elt);
          });
        })
        .catch(function () {}) // offline for a moment: the next tick asks again
        .then(function () {
          busy = false;
        });
    }, every * 1000);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", followFeed);
  else followFeed();
})();
