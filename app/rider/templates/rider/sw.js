// The rider app's service worker (DESIGN §13), served at /sw.js with scope "/".
//
// - On every online visit to /training it keeps, in a cache of that rider's own
//   ("rider-" + the rider's key from <meta name="rider">): /training, and for each course of an
//   open assignment the course page, every lesson and the quiz page. Those fetches carry
//   X-Offline-Copy: 1, so the server records no page view for them. Static files and the
//   offline pages are kept in "static" when the worker is installed.
// - Pages are network-first (3 s); then the kept copy, with its offline line shown; a page
//   never kept answers the offline page in the rider's language.
// - A quiz answer that cannot reach the server is kept in IndexedDB and sent later, in order,
//   each once (the form's attempt_id makes a repeat harmless), with the signed-in rider's fresh
//   csrf_token and only while that same rider is signed in.
// - Sign-out removes every rider's kept pages; a copy kept for another rider is removed before
//   a new one is kept. Unsent answers stay until their rider signs in again.
"use strict";

const LANGUAGES = {{ languages | tojson }};
const STATIC = "static";
const RIDER = "rider-";
const NETWORK_WAIT_MS = 3000;
const KEEPING_AT_ONCE = 4;
const COPY = { "X-Offline-Copy": "1" };
const KEPT_STATIC = [
  "/static/app.css",
  "/static/offline.js",
  "/static/icons/icon-192.png",
  "/manifest.webmanifest",
  ...LANGUAGES.flatMap((lang) => [`/offline?lang=${lang}`, `/offline/saved?lang=${lang}`]),
];
const QUIZ = /^\/training\/courses\/[0-9a-f-]{36}\/quiz$/;
const RIDER_META = /<meta name="rider" content="([0-9a-f]+)">/;
const CSRF = /name="csrf_token" value="([^"]+)"/;
const PAGE_LANGUAGE = /<html lang="([a-z]+)"/;
const OPEN_COURSE = /href="(\/training\/courses\/[0-9a-f-]{36})" data-offline/g;
const ATTEMPT_ID = /name="attempt_id" value="[0-9a-f-]{36}"/g;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC).then((cache) => cache.addAll(KEPT_STATIC)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || /^\/(api|admin)(\/|$)/.test(url.pathname)) {
    return;
  }
  if (request.method === "POST") {
    if (QUIZ.test(url.pathname)) event.respondWith(submitQuiz(request));
    else if (url.pathname === "/sign-out") event.respondWith(signOut(request));
  } else if (request.method === "GET") {
    if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
      event.respondWith(staticFile(request));
    } else if (request.mode === "navigate") {
      event.respondWith(page(event, url));
    }
  }
});

self.addEventListener("sync", (event) => {
  if (event.tag === "answers") event.waitUntil(sendWaiting());
});

// Messages from offline.js: "status", "send" (try now) and "keep" (the first visit, made
// before this worker controlled the page). Each answers the status on the port it was given.
self.addEventListener("message", (event) => {
  const work = {
    send: () => sendWaiting(),
    keep: () => fetch("/training", { headers: COPY }).then(keepCopy),
    status: () => null,
  }[event.data && event.data.type];
  if (!work) return;
  event.waitUntil(
    Promise.resolve()
      .then(work)
      .catch(() => null)
      .then(status)
      .then((answer) => event.ports[0] && event.ports[0].postMessage(answer)),
  );
});

function withinWait(promise) {
  return new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error("the network is too slow")), NETWORK_WAIT_MS);
    promise.then(resolve, reject);
  });
}

async function page(event, url) {
  try {
    const response = await withinWait(fetch(event.request));
    if (url.pathname === "/training" && response.ok && !response.redirected) {
      event.waitUntil(keepCopy(response.clone()).then(sendWaiting));
    } else if (response.ok) {
      event.waitUntil(sendWaiting());
    }
    return response;
  } catch {
    return keptPage(url);
  }
}

async function staticFile(request) {
  try {
    const response = await withinWait(fetch(request));
    if (response.ok) await (await caches.open(STATIC)).put(request, response.clone());
    return response;
  } catch {
    return (await caches.match(request)) || Response.error();
  }
}

// ---- the kept copy

async function keptCache() {
  const name = (await caches.keys()).find((key) => key.startsWith(RIDER));
  return name ? caches.open(name) : null;
}

async function riderOfCopy() {
  const name = (await caches.keys()).find((key) => key.startsWith(RIDER));
  return name ? name.slice(RIDER.length) : null;
}

async function riderLanguage() {
  const cache = await keptCache();
  const training = cache && (await cache.match("/training"));
  const found = training && PAGE_LANGUAGE.exec(await training.text());
  return found && LANGUAGES.includes(found[1]) ? found[1] : "en";
}

async function keptPage(url) {
  const cache = await keptCache();
  const kept = cache && (await cache.match(url.pathname));
  if (!kept) return offlinePage("/offline");
  // Shown as the server would render it: the offline line on, a fresh attempt_id a quiz form.
  const html = (await kept.text())
    .replace('id="offline-line" hidden', 'id="offline-line"')
    .replace(ATTEMPT_ID, () => `name="attempt_id" value="${self.crypto.randomUUID()}"`);
  return new Response(html, { headers: kept.headers });
}

async function offlinePage(path) {
  const kept = await caches.match(`${path}?lang=${await riderLanguage()}`);
  return kept || new Response("Offline", { status: 503 });
}

async function forgetRiders(except) {
  const names = (await caches.keys()).filter((key) => key.startsWith(RIDER) && key !== except);
  await Promise.all(names.map((name) => caches.delete(name)));
}

async function inTurns(items, work) {
  const queue = [...items];
  const worker = async () => {
    while (queue.length) await work(queue.shift());
  };
  await Promise.all(Array.from({ length: KEEPING_AT_ONCE }, worker));
}

// The page at `path` fetched for the copy and kept; its HTML (or the copy kept before, when
// the network fails), or null when the rider may no longer open it.
async function keep(cache, path, kept) {
  let response;
  try {
    response = await fetch(path, { headers: COPY });
  } catch {
    const before = await cache.match(path);
    if (!before) return null;
    kept.add(path);
    return before.text();
  }
  if (!response.ok || response.redirected) return null;
  const html = await response.text();
  await cache.put(path, new Response(html, { headers: response.headers }));
  kept.add(path);
  return html;
}

function links(html, pattern) {
  return [...new Set([...html.matchAll(pattern)].map((found) => found[1]))];
}

async function keepCopy(training) {
  if (!training.ok || training.redirected) return;
  const html = await training.text();
  const rider = RIDER_META.exec(html);
  if (!rider) return;
  const name = RIDER + rider[1];
  await forgetRiders(name);
  const cache = await caches.open(name);
  await cache.put("/training", new Response(html, { headers: training.headers }));
  const kept = new Set(["/training"]);
  const pages = [];
  await inTurns(links(html, OPEN_COURSE), async (course) => {
    const coursePage = await keep(cache, course, kept);
    const own = new RegExp(`href="(${course}/(?:lessons/\\d+|quiz))"`, "g");
    if (coursePage) pages.push(...links(coursePage, own));
  });
  await inTurns(pages, (path) => keep(cache, path, kept));
  // Courses finished or no longer assigned leave the copy.
  for (const request of await cache.keys()) {
    if (!kept.has(new URL(request.url).pathname)) await cache.delete(request);
  }
}

// ---- quiz answers kept and sent once; a sign-out made offline

// "answers": the quiz forms kept, oldest first. "leaving": the rider who signed out while
// offline (key "rider"): their session is ended at the next chance.
function database() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("rider-offline", 1);
    opening.onupgradeneeded = () => {
      opening.result.createObjectStore("answers", { keyPath: "id", autoIncrement: true });
      opening.result.createObjectStore("leaving");
    };
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

async function stored(name, mode, use) {
  const db = await database();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(name, mode);
      const request = use(transaction.objectStore(name));
      transaction.oncomplete = () => resolve(request && request.result);
      transaction.onerror = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

const waitingAnswers = () => stored("answers", "readonly", (store) => store.getAll());
const keepAnswer = (answer) => stored("answers", "readwrite", (store) => store.add(answer));
const leaving = () => stored("leaving", "readonly", (store) => store.get("rider"));
const setLeaving = (rider) =>
  stored("leaving", "readwrite", (store) => (rider ? store.put(rider, "rider") : store.clear()));

async function submitQuiz(request) {
  const answer = {
    rider: await riderOfCopy(),
    path: new URL(request.url).pathname,
    body: await request.clone().text(),
  };
  const before = (await waitingAnswers()).some((kept) => kept.rider === answer.rider);
  if (!before) {
    try {
      const response = await fetch(request);
      if (signInNeeded(response)) {
        // Kept for when the rider has signed in again; the rider sees the sign-in page.
        await keepAnswer(answer);
        await broadcast(await status());
        return response;
      }
      if (!tryLater(response)) return response;
    } catch {
      // Offline: kept below.
    }
  }
  // Behind answers already waiting, offline, or the server cannot take it now: in order.
  answer.id = await keepAnswer(answer);
  const sent = await sendWaiting();
  if (sent.has(answer.id)) return sent.get(answer.id);
  if (self.registration.sync) self.registration.sync.register("answers").catch(() => null);
  return offlinePage("/offline/saved");
}

// The session ended (the guard sends to sign-in; the form's token is no longer the session's).
function signInNeeded(response) {
  return response.type === "opaqueredirect" || response.status === 403;
}

// The server is there but cannot take the answer now (down, too busy).
function tryLater(response) {
  return response.status >= 500 || response.status === 429 || response.status === 408;
}

let sending = Promise.resolve();

// One sending at a time, each after the one before (so it reads the answers kept since): the
// waiting answers of the rider signed in now, oldest first, then that rider's sign-out if it
// was made offline. A map of answer id to the server's response for the answers sent.
function sendWaiting() {
  sending = sending.catch(() => null).then(send);
  return sending;
}

async function send() {
  const sent = new Map();
  const waiting = await waitingAnswers();
  const left = await leaving();
  if (!waiting.length && !left) return sent;
  let training;
  try {
    training = await fetch("/training", { headers: COPY, redirect: "manual" });
  } catch {
    return sent;
  }
  const html = training.ok ? await training.text() : "";
  const rider = (RIDER_META.exec(html) || [])[1];
  const token = (CSRF.exec(html) || [])[1];
  for (const answer of waiting.filter((kept) => rider && kept.rider === rider)) {
    const body = new URLSearchParams(answer.body);
    body.set("csrf_token", token);
    let response;
    try {
      response = await fetch(answer.path, { method: "POST", body, redirect: "manual" });
    } catch {
      return sent;
    }
    if (signInNeeded(response) || tryLater(response)) break;
    // Recorded, or refused for good (a course no longer assigned, a quiz that changed):
    // sending it again could never succeed.
    await stored("answers", "readwrite", (store) => store.delete(answer.id));
    sent.set(answer.id, response);
  }
  if (left && left === rider) {
    const body = new URLSearchParams({ csrf_token: token });
    await fetch("/sign-out", { method: "POST", body, redirect: "manual" }).catch(() => null);
    await forgetRiders();
  }
  // Signed out now, or the phone holds another rider's session.
  if (left) await setLeaving(null);
  await broadcast(await status());
  // The kept pages show the results now (a course passed leaves an assignment finished).
  if (sent.size && left !== rider) {
    await fetch("/training", { headers: COPY }).then(keepCopy, () => null);
  }
  return sent;
}

async function status() {
  const waiting = {};
  for (const answer of await waitingAnswers()) {
    waiting[answer.rider] = (waiting[answer.rider] || 0) + 1;
  }
  return { type: "status", waiting };
}

async function broadcast(message) {
  for (const client of await self.clients.matchAll()) client.postMessage(message);
}

// ---- sign-out

async function signOut(request) {
  const rider = await riderOfCopy();
  let response = null;
  try {
    response = await fetch(request);
  } catch {
    // Offline: the copy goes now; the session ends at the next chance (send).
    if (rider) await setLeaving(rider);
  }
  const offline = response ? null : await offlinePage("/offline");
  await forgetRiders();
  return response || offline;
}
