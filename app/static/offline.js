// Every rider page: registers the service worker (/sw.js, DESIGN §13), shows how many quiz
// answers wait on this phone to be sent, asks the worker to send them when the phone is back
// online, and before a sign-out with answers unsent, sends them or asks the rider.
"use strict";

(() => {
  if (!("serviceWorker" in navigator)) return;
  const rider = document.querySelector('meta[name="rider"]');
  const line = document.getElementById("answers-waiting");
  let waiting = 0;

  // This rider's waiting answers on a signed-in page; every rider's elsewhere (sign in to send).
  function show(message) {
    if (!message || message.type !== "status") return;
    const counts = Object.entries(message.waiting);
    waiting = counts
      .filter(([key]) => !rider || key === rider.content)
      .reduce((sum, [, count]) => sum + count, 0);
    line.textContent = line.dataset.text.replace("{count}", waiting);
    line.hidden = waiting === 0;
  }

  async function ask(type) {
    const worker = (await navigator.serviceWorker.ready).active;
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      worker.postMessage({ type }, [channel.port2]);
    });
  }

  navigator.serviceWorker.addEventListener("message", (event) => show(event.data));
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
  // The first visit is made before the worker controls the page: it keeps the copy on request.
  const first = rider && location.pathname === "/training" && !navigator.serviceWorker.controller;
  ask(first ? "keep" : "status").then(show);
  window.addEventListener("online", () => ask("send").then(show));

  const signOut = document.querySelector('form[action="/sign-out"]');
  if (!signOut) return;
  signOut.addEventListener("submit", async (event) => {
    if (!waiting) return;
    event.preventDefault();
    show(await ask("send"));
    if (!waiting || window.confirm(signOut.dataset.unsent.replace("{count}", waiting))) {
      signOut.submit();
    }
  });
})();
