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
  });
})();
