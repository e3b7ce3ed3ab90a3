/* The chat page's own behaviour (htmx does the rest).
 *
 * - A streamed reply (htmx's SSE extension on the thinking bubble) whose event source is closed
 *   for good (the server said 204, or refused the connection) falls back to polling: the bubble is
 *   asked once to poll ("spotter:poll"), and the poll answers with a polling bubble or the reply.
 *   A dropped connection is not closed for good: the browser reconnects by itself and resumes
 *   after the last event it had (Last-Event-ID).
 * - When a coach reply lands (by its final event or by the poll), "spotter:reply" is dispatched on
 *   document.body with detail {id, failed}.
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

  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.matches || !elt.matches(".bubble-coach:not(.bubble-thinking)")) return;
    document.body.dispatchEvent(
      new CustomEvent("spotter:reply", {
        detail: { id: elt.id, failed: elt.classList.contains("bubble-error") },
      })
    );
  });
})();
