// The assistant page (/training/assistant): sends the question and shows the answer as it
// streams in (text/event-stream: `data:` events, `event: error`, then `event: done`).
// Without this script the form posts normally and the page shows the whole answer.
"use strict";

document.addEventListener("DOMContentLoaded", function () {
  var form = document.querySelector("form[data-assistant]");
  if (!form || !window.fetch || !window.TextDecoder || !window.ReadableStream) return;
  var section = document.getElementById("assistant-answer");
  var text = document.getElementById("answer-text");
  var problem = document.getElementById("answer-problem");
  var button = form.querySelector("button[type=submit]");

  function showProblem(message) {
    problem.textContent = message;
    problem.hidden = false;
  }

  // One event block: its `event:` name and its `data:` lines joined by newlines.
  function handle(block) {
    var name = "message";
    var data = [];
    block.split("\n").forEach(function (line) {
      if (line.indexOf("event:") === 0) name = line.slice(6).trim();
      else if (line.indexOf("data:") === 0) {
        var value = line.slice(5);
        data.push(value.charAt(0) === " " ? value.slice(1) : value);
      }
    });
    if (name === "message") text.textContent += data.join("\n");
    else if (name === "error") showProblem(data.join("\n"));
    return name === "done";
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    button.disabled = true;
    section.hidden = false;
    text.textContent = "";
    problem.hidden = true;
    section.setAttribute("aria-busy", "true");
    button.dataset.label = button.dataset.label || button.textContent;
    button.textContent = section.dataset.waiting;

    function finish() {
      button.disabled = false;
      button.textContent = button.dataset.label;
      section.removeAttribute("aria-busy");
      section.dataset.done = "true";
    }

    fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { Accept: "text/event-stream" },
      credentials: "same-origin",
    })
      .then(function (response) {
        if (!response.ok) {
          return response.text().then(function (message) {
            showProblem(message);
          });
        }
        var reader = response.body.getReader();
        var decoder = new TextDecoder();
        var buffer = "";
        function pump() {
          return reader.read().then(function (chunk) {
            if (chunk.done) return;
            buffer += decoder.decode(chunk.value, { stream: true });
            var end;
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              var block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (handle(block)) return;
            }
            return pump();
          });
        }
        return pump();
      })
      .catch(function () {
        showProblem(section.dataset.failed || "The answer could not be loaded.");
      })
      .then(finish);
  });
});
