// Every rider page: registers the service worker (/sw.js, DESIGN §13), shows how many quiz
// answers wait on this phone to be sent, asks the worker to send them when the phone is back
// online, and before a sign-out with answers unsent, sends them or asks the rider. A page of
// a rider whose session is no longer the phone's (a tab left open, a page shown again by
// Back) is loaded again when it is shown: the phone then shows what its session may see
// (docs/rider-app.md, "Shared phones").
"use strict";

(() => {
  const rider = document.querySelector('meta[name="rider"]');
  const phoneRider = () => (document.cookie.match(/(?:^|;\s*)rider_key=([^;]*)/) || [])[1];
  const recheck = () => rider && phoneRider() !== rider.content && location.reload();
  window.addEventListener("pageshow", (event) => event.persisted && recheck());
  document.addEventListener("visibilitychange", () => !document.hidden && recheck());

  if (!("serviceWorker" in navigator)) return;
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
