/* The program editor (programs/editor): drag exercises with SortableJS (vendored in
   static/sortablejs), add, copy and remove rows, then post the whole tree as JSON to the preview
   and the apply views. The page keeps no state of its own: the tree is read from the DOM. */
(function () {
  "use strict";

  var root = document.querySelector(".program-editor");
  if (!root) return;
  var weeksBox = document.getElementById("ed-weeks");
  var result = document.getElementById("ed-result");
  var applyButton = document.getElementById("ed-apply");
  var previewButton = document.getElementById("ed-preview");
  var counter = 0;

  function csrf() {
    return root.querySelector("input[name=csrfmiddlewaretoken]").value;
  }

  function newKey() {
    counter += 1;
    return "new-" + counter;
  }

  function fromTemplate(id) {
    var node = document.getElementById(id).content.firstElementChild.cloneNode(true);
    freshen(node);
    return node;
  }

  /* A copied or new row and everything in it gets new keys and no ids. */
  function freshen(node) {
    var rows = [node].concat(Array.prototype.slice.call(node.querySelectorAll(".ed-row")));
    rows.forEach(function (row) {
      if (row.dataset.kind === "session" && row.dataset.id) row.dataset.copyOf = row.dataset.id;
      delete row.dataset.id;
      delete row.dataset.logged;
      row.dataset.key = newKey();
    });
    node.querySelectorAll(".ed-error").forEach(function (e) { e.remove(); });
    node.querySelectorAll(".ed-invalid").forEach(function (e) { e.classList.remove("ed-invalid"); });
    node.querySelectorAll(".ed-exercises").forEach(sortable);
  }

  function sortable(list) {
    if (!window.Sortable || list.dataset.sortable) return;
    list.dataset.sortable = "1";
    window.Sortable.create(list, {
      group: "exercises",
      handle: ".ed-handle",
      animation: 150,
      fallbackOnBody: true,
      forceFallback: true, // pointer events, not HTML5 drag: the same on a mouse, a pen and a tablet
      onEnd: changed,
    });
  }

  function renumber() {
    weeksBox.querySelectorAll(":scope > .ed-week").forEach(function (week, w) {
      week.querySelector(".ed-week-head .ed-number").textContent = w + 1;
      week.querySelectorAll(".ed-session").forEach(function (session, s) {
        session.querySelector(".ed-session-head .ed-number").textContent = s + 1;
      });
    });
  }

  function changed() {
    applyButton.disabled = true;
    renumber();
  }

  function values(row, names) {
    var out = {};
    names.forEach(function (name) {
      var input = ownField(row, name);
      out[name] = input ? input.value : "";
    });
    return out;
  }

  /* The row's own field, not one of a child row's. */
  function ownField(row, name) {
    var found = null;
    row.querySelectorAll("[data-field='" + name + "']").forEach(function (input) {
      if (!found && input.closest(".ed-row") === row) found = input;
    });
    return found;
  }

  function rowData(row, names) {
    var data = { key: row.dataset.key, id: row.dataset.id ? Number(row.dataset.id) : null, fields: values(row, names) };
    if (row.dataset.copyOf) data.copyOf = Number(row.dataset.copyOf);
    return data;
  }

  var WEEK = ["phase", "start_date", "end_date", "description"];
  var SESSION = ["name", "day_of_week", "scheduled_date", "notes"];
  var EXERCISE = ["name", "working_sets", "reps", "target_load", "rest_seconds", "warmup_sets", "group_label", "notes"];

  function tree() {
    return {
      version: Number(root.dataset.version),
      weeks: Array.prototype.map.call(weeksBox.querySelectorAll(":scope > .ed-week"), function (week) {
        var w = rowData(week, WEEK);
        w.sessions = Array.prototype.map.call(week.querySelectorAll(".ed-session"), function (session) {
          var s = rowData(session, SESSION);
          s.exercises = Array.prototype.map.call(session.querySelectorAll(".ed-exercise"), function (exercise) {
            return rowData(exercise, EXERCISE);
          });
          return s;
        });
        return w;
      }),
    };
  }

  function clearProblems() {
    root.querySelectorAll(".ed-error").forEach(function (e) { e.remove(); });
    root.querySelectorAll(".ed-invalid").forEach(function (e) { e.classList.remove("ed-invalid"); });
  }

  function showProblems(problems) {
    problems.forEach(function (problem) {
      var row = root.querySelector(".ed-row[data-key='" + CSS.escape(problem.key) + "']");
      if (!row) return;
      var input = problem.field ? ownField(row, problem.field) : null;
      var note = document.createElement("span");
      note.className = "ed-error";
      note.setAttribute("role", "alert");
      note.textContent = problem.message;
      if (input) {
        input.classList.add("ed-invalid");
        input.setAttribute("aria-invalid", "true");
        (input.closest("label") || input).after(note);
      } else {
        row.classList.add("ed-invalid");
        row.appendChild(note);
      }
    });
  }

  function post(url) {
    clearProblems();
    previewButton.disabled = true;
    applyButton.disabled = true;
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(tree()),
      credentials: "same-origin",
    })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        result.innerHTML = answer.html;
        showProblems(answer.problems || []);
        previewButton.disabled = answer.applied;
        applyButton.disabled = !(answer.ok && !answer.applied);
        if (answer.applied) root.classList.add("ed-saved");
        result.scrollIntoView({ block: "nearest" });
        return answer;
      })
      .catch(function () {
        result.textContent = "The server could not be reached; nothing was saved.";
        previewButton.disabled = false;
      });
  }

  function addDays(iso, days) {
    if (!iso) return iso;
    var d = new Date(iso + "T00:00:00Z");
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  }

  function daysBetween(a, b) {
    return Math.round((new Date(b + "T00:00:00Z") - new Date(a + "T00:00:00Z")) / 86400000);
  }

  /* A copied week goes right after its source, starting the day after it ends; its sessions'
     dates move with it (later weeks are moved by the engine's add_week when they overlap). */
  function copyWeek(week) {
    var copy = week.cloneNode(true);
    freshen(copy);
    var start = ownField(week, "start_date").value;
    var end = ownField(week, "end_date").value;
    if (start && end) {
      var shift = daysBetween(start, end) + 1;
      ownField(copy, "start_date").value = addDays(start, shift);
      ownField(copy, "end_date").value = addDays(end, shift);
      copy.querySelectorAll("[data-field='scheduled_date']").forEach(function (input) {
        input.value = addDays(input.value, shift);
      });
    }
    week.after(copy);
  }

  function addWeek() {
    var week = fromTemplate("ed-tpl-week");
    var weeks = weeksBox.querySelectorAll(":scope > .ed-week");
    var last = weeks[weeks.length - 1];
    var end = last ? ownField(last, "end_date").value : "";
    if (end) {
      ownField(week, "start_date").value = addDays(end, 1);
      ownField(week, "end_date").value = addDays(end, 7);
    }
    ownField(week, "phase").value = "New week";
    ownField(week.querySelector(".ed-session"), "name").value = "Session 1";
    weeksBox.appendChild(week);
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action]");
    if (!button) return;
    var action = button.dataset.action;
    var row = button.closest(".ed-row");
    if (action === "remove" && row) {
      row.remove();
    } else if (action === "copy" && row) {
      if (row.dataset.kind === "week") {
        copyWeek(row);
      } else {
        var copy = row.cloneNode(true);
        freshen(copy);
        row.after(copy);
      }
    } else if (action === "add-exercise") {
      row.querySelector(".ed-exercises").appendChild(fromTemplate("ed-tpl-exercise"));
    } else if (action === "add-session") {
      var session = fromTemplate("ed-tpl-session");
      ownField(session, "name").value = "New session";
      row.querySelector(".ed-sessions").appendChild(session);
    } else if (action === "add-week") {
      addWeek();
    } else {
      return;
    }
    changed();
  });

  root.addEventListener("input", function () { applyButton.disabled = true; });
  previewButton.addEventListener("click", function () { post(root.dataset.previewUrl); });
  applyButton.addEventListener("click", function () { post(root.dataset.applyUrl); });

  root.querySelectorAll(".ed-exercises").forEach(sortable);
  root.dataset.ready = "1";
})();
