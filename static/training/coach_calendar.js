/* The coach's calendar (training.coach_views): drag a session to another day, or a library
   workout onto a day, or use the Move to… / Schedule on… forms (a tablet, the keyboard). Every
   drag is previewed by the server (the same before → after as the chat's card) and saved only by
   Apply; the page then reloads its grid. Listeners are delegated, so a reloaded grid needs none. */
(function () {
  "use strict";
  const root = document.querySelector(".coach-cal[data-preview]");
  if (!root) return;
  const pane = document.getElementById("cal-result");
  const token = () => document.querySelector("input[name=csrfmiddlewaretoken]").value;
  let dragged = null;

  function fields(form, submitter) {
    const data = new FormData(form);
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    return data;
  }

  async function send(step, data) {
    data.set("version", root.dataset.version);
    pane.setAttribute("aria-busy", "true");
    const response = await fetch(root.dataset[step], {
      method: "POST",
      body: data,
      headers: { "X-CSRFToken": token() },
      credentials: "same-origin",
    });
    pane.removeAttribute("aria-busy");
    if (response.status === 404 || response.status === 403) {
      pane.innerHTML = "<p class=\"errornote\" role=\"alert\">That is not yours to change; nothing was changed.</p>";
      return;
    }
    const answer = (response.headers.get("Content-Type") || "").startsWith("application/json")
      ? await response.json()
      : { html: "<p class=\"errornote\" role=\"alert\">Something went wrong on the server; nothing was changed. Reload and try again.</p>" };
    pane.innerHTML = answer.html;
    if (answer.applied || (step === "undo" && answer.ok)) await reloadGrid();
    pane.dataset.state = answer.applied ? "applied" : (answer.ok ? (step === "undo" ? "undone" : "previewed") : "refused");
  }

  async function reloadGrid() {
    const response = await fetch(window.location.href, { credentials: "same-origin" });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("cal-grid");
    const fresher = page.querySelector(".coach-cal[data-version]");
    if (fresh) document.getElementById("cal-grid").replaceWith(fresh);
    if (fresher) root.dataset.version = fresher.dataset.version;
  }

  document.addEventListener("dragstart", (event) => {
    const session = event.target.closest && event.target.closest(".draggable-session");
    const workout = event.target.closest && event.target.closest(".cal-workout");
    if (session) dragged = { kind: "move", session: session.dataset.session };
    else if (workout) dragged = { kind: "library", workout: workout.dataset.workout };
    else return;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", JSON.stringify(dragged));
  });
  document.addEventListener("dragover", (event) => {
    const day = event.target.closest && event.target.closest("#cal-grid td[data-date]");
    if (!day || !dragged) return;
    event.preventDefault();
    day.classList.add("drop-target");
  });
  document.addEventListener("dragleave", (event) => {
    const day = event.target.closest && event.target.closest("#cal-grid td[data-date]");
    if (day) day.classList.remove("drop-target");
  });
  document.addEventListener("drop", (event) => {
    const day = event.target.closest && event.target.closest("#cal-grid td[data-date]");
    if (!day || !dragged) return;
    event.preventDefault();
    day.classList.remove("drop-target");
    const data = new FormData();
    Object.entries(dragged).forEach(([name, value]) => data.set(name, value));
    data.set("date", day.dataset.date);
    dragged = null;
    send("preview", data);
  });
  document.addEventListener("dragend", () => { dragged = null; });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    let step = null;
    if (form.matches(".drag-form, .cal-choose")) step = "preview";
    else if (form.matches(".cal-apply")) step = "apply";
    else if (form.matches(".cal-undo")) step = "undo";
    if (!step || !root.contains(form)) return;
    event.preventDefault();
    send(step, fields(form, event.submitter));
  });
  document.addEventListener("click", (event) => {
    if (event.target.id === "cal-cancel") pane.innerHTML = "<p class=\"muted\">Nothing was changed.</p>";
  });
})();
