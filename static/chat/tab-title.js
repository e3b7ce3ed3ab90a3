// The tab title says a reply arrived while the tab was in the background: "(1) New reply · Spotter",
// "(2) New replies · Spotter"... and goes back to the page's own title when the tab is visible again.
//
// A reply is announced by the DOM event `spotter:reply` on document.body (detail: {messageId}),
// which static/chat.js dispatches when a reply lands, by its stream's final event or by the poll.
// A reply announced twice is counted once.
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
})();
