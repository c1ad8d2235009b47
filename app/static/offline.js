// Every rider page: registers the service worker (/sw.js, docs/rider-offline.md), shows how many quiz
// answers wait on this phone to be sent, asks the worker to send them when the phone is back
// online, and before a sign-out with answers unsent, sends them or asks the rider. Once kept
// answers were sent, the page says so and shows the new results without a reload by the
// rider (docs/rider-offline.md, "Offline"). A page of
// a rider whose session is no longer the phone's (a tab left open, a page shown again by
// Back) is loaded again when it is shown: the phone then shows what its session may see
// (docs/rider-offline.md, "Shared phones").
"use strict";

(() => {
  const rider = document.querySelector('meta[name="rider"]');
  const phoneRider = () => (document.cookie.match(/(?:^|;\s*)rider_key=([^;]*)/) || [])[1];
  const recheck = () => rider && phoneRider() !== rider.content && location.reload();
  window.addEventListener("pageshow", (event) => event.persisted && recheck());
  document.addEventListener("visibilitychange", () => !document.hidden && recheck());

  if (!("serviceWorker" in navigator)) return;
  const line = document.getElementById("answers-waiting");
  const sentLine = document.getElementById("answers-sent");
  const offlineLine = document.getElementById("offline-line");
  // The worker's "answers saved" page, the answer to a quiz sent offline (no rider's page).
  const savedPage = document.getElementById("answers-saved-page");
  const SENT = "rider-answers-sent";
  let waiting = 0;

  // The pages that show results (My training, a course's page); a quiz page may be being
  // answered: it is never swapped, whatever the rider chose would go.
  const showsResults = () => /^\/training(\/courses\/[^/]+)?$/.test(location.pathname);
  const answering = () => /\/quiz$/.test(location.pathname);
  // A kept copy shown as offline, fetched again once the phone is back (but a quiz's).
  const stale = () => !offlineLine.hidden && !answering();

  // This page again from the server, swapped in place; a session that ended (sent to sign-in)
  // or a page that is gone loads the server's answer instead.
  let refreshing = null;
  async function refresh() {
    const response = await fetch(location.href, { headers: { "X-Offline-Copy": "1" } });
    if (!response.ok || response.redirected) {
      location.reload();
      return;
    }
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const main = fresh.querySelector("main");
    if (main) document.querySelector("main").replaceWith(document.adoptNode(main));
    offlineLine.hidden = true;
  }
  function refreshOnce() {
    refreshing ||= refresh()
      .catch(() => null)
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  // The worker sent kept answers of this page's rider (or, on the "saved" page, of the rider
  // signed in): the results are shown, and the line says the answers were sent.
  function sent(message) {
    if (!message || message.type !== "sent" || !message.count) return;
    if (rider ? message.rider !== rider.content : !savedPage) return;
    if (!rider) {
      sessionStorage.setItem(SENT, "1");
      location.replace("/training");
      return;
    }
    sentLine.hidden = false;
    if (showsResults() || stale()) refreshOnce();
  }
  // Said once, on the page the "saved" page went on to (not later, should that be sign-in).
  if (sessionStorage.getItem(SENT)) {
    sessionStorage.removeItem(SENT);
    sentLine.hidden = !rider;
  }

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

  navigator.serviceWorker.addEventListener("message", (event) => {
    show(event.data);
    sent(event.data);
  });
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
  // A visit the worker did not serve (the first, made before it controlled the page) has it keep
  // the copy on request. Asked of the navigation, not of `controller`: a worker that claims the
  // page while its navigation is under way controls the page without having seen the visit.
  const [visit] = performance.getEntriesByType("navigation");
  const unseen = rider && location.pathname === "/training" && !(visit?.workerStart > 0);
  ask(unseen ? "keep" : "status").then(show);
  // Back online: the kept answers go, and a kept copy shown as offline is shown fresh.
  window.addEventListener("online", () =>
    ask("send").then((status) => {
      show(status);
      if (stale()) refreshOnce();
      else offlineLine.hidden = true;
    }),
  );

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
