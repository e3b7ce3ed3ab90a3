// The chat's microphone (issue 24): the browser's own speech recognition (the Web Speech API,
// SpeechRecognition or webkitSpeechRecognition) turns speech into text, which only fills the
// message box: the athlete reads it, corrects it and presses Send. Nothing is ever sent unseen,
// and no audio reaches Spotter. Where the browser has no speech recognition the button is removed.
(function () {
  "use strict";
  if (window.spotterVoice) return;  // the script is on the page once; the box is re-rendered
  window.spotterVoice = true;

  function say(text) {
    var status = document.getElementById("voice-status");
    if (status) status.textContent = text;
  }

  function listen(button) {
    var Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
    var box = document.getElementById(button.dataset.voiceFor);
    if (!box) return;
    if (button.recognition) {
      button.recognition.stop();
      return;
    }
    var recognition = new Recognition();
    recognition.lang = document.documentElement.lang || "en";
    recognition.interimResults = false;
    recognition.continuous = false;
    recognition.maxAlternatives = 1;
    button.recognition = recognition;
    button.setAttribute("aria-pressed", "true");
    say("Listening… speak, then check the text and press Send.");
    recognition.onresult = function (event) {
      var heard = "";
      for (var i = 0; i < event.results.length; i++) heard += event.results[i][0].transcript;
      heard = heard.trim();
      if (!heard) return;
      var before = box.value && !/\s$/.test(box.value) ? box.value + " " : box.value;
      var text = before + heard;
      box.value = box.maxLength > 0 ? text.slice(0, box.maxLength) : text;
      box.focus();
      say("Check the text, then press Send.");
    };
    recognition.onerror = function (event) {
      say(event.error === "not-allowed" || event.error === "service-not-allowed"
        ? "The microphone isn't allowed for this site; type your message instead."
        : "Nothing was heard; try again or type your message.");
    };
    recognition.onend = function () {
      button.recognition = null;
      button.setAttribute("aria-pressed", "false");
    };
    recognition.start();
  }

  function setup(root) {
    var supported = !!(window.SpeechRecognition || window.webkitSpeechRecognition);
    root.querySelectorAll("[data-voice-for]").forEach(function (button) {
      if (!supported) {
        button.remove();
        return;
      }
      button.hidden = false;
      if (button.dataset.voiceReady) return;
      button.dataset.voiceReady = "1";
      button.addEventListener("click", function () { listen(button); });
    });
  }

  function start() { setup(document); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  document.addEventListener("htmx:load", function (event) { setup(event.detail.elt); });
})();
