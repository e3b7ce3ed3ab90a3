// The tab title says a reply arrived while the tab was in the background: "(1) New reply · Spotter",
// "(2) New replies · Spotter"... and goes back to the page's own title when the tab is visible again.
//
// A reply is announced by the DOM event `spotter:reply` on document.body (detail: {messageId}):
// the streaming code dispatches it when a streamed reply lands, and this file dispatches it when
// the polling path swaps a finished reply in (the thinking placeholder polls, and the reply
// partial replaces it). A reply announced twice (both paths) is counted once.
(function () {
  "use strict";
  var baseTitle = document.title;
  var unseen = 0;
  var announced = {};

  function hidden() {
    return document.visibilityState === "hidden";
  }

  document.body.addEventListener("spotter:reply", function (event) {
    var id = event.detail && event.detail.messageId;
    if (id) {
      if (announced[id]) return;
      announced[id] = true;
    }
    if (!hidden()) return;
    unseen += 1;
    document.title = "(" + unseen + ") " + (unseen === 1 ? "New reply" : "New replies") + " · Spotter";
  });

  document.addEventListener("visibilitychange", function () {
    if (hidden() || unseen === 0) return;
    unseen = 0;
    document.title = baseTitle;
  });

  // The polling path: a thinking placeholder's poll is answered either by another placeholder or
  // by the reply, which takes its place under the same id. The placeholder is noted before the
  // swap and the new element read after settling (until then htmx keeps the old classes on it for
  // its settle transition). A placeholder still thinking, or turned into the "taking too long"
  // note, is not a reply yet.
  var polling = {};
  var dispatched = {};
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var source = event.detail && event.detail.elt;
    if (source && source.id && source.classList && source.classList.contains("bubble-thinking")) {
      polling[source.id] = true;
    }
  });
  document.body.addEventListener("htmx:afterSettle", function (event) {
    var settled = event.detail && event.detail.elt;
    if (!settled || !settled.id || !polling[settled.id]) return;
    var reply = document.getElementById(settled.id);
    if (!reply || !reply.classList.contains("bubble")) return;
    if (reply.classList.contains("bubble-thinking") || reply.classList.contains("bubble-overdue")) return;
    delete polling[settled.id];
    var id = reply.id.replace("message-", "");
    if (dispatched[id]) return;
    dispatched[id] = true;
    document.body.dispatchEvent(new CustomEvent("spotter:reply", { detail: { messageId: id } }));
  });
})();
