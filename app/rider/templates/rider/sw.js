// The rider app's service worker (docs/rider-offline.md, "Offline" and "Shared phones"), served at
// /sw.js with scope "/".
//
// - Whose session is on the phone: the `rider_key` cookie, read with the Cookie Store API. The
//   server sets it at sign-in (an opaque key of the rider, never enough to sign in) and removes
//   it at sign-out and whenever it finds the session ended. Without the cookie (or the API) no
//   kept page is shown, and a page that names another rider or none removes every other
//   rider's copy.
// - On every online visit to /training it keeps, in a cache of that rider's own ("rider-" + the
//   key, which the page's <meta name="rider"> must name too): /training, and for each course of
//   an open assignment the course page, every lesson and the quiz page. Those fetches carry
//   X-Offline-Copy: 1, so the server records no page view for them. Static files and the
//   offline pages are kept in "static" when the worker is installed.
// - A page the rider of the cookie has kept is network-first (3 s), then that copy with its
//   offline line shown; should the server answer later that the session has ended, the copy
//   goes and the page shows the server's answer. Any other page waits for the network, and
//   when it fails answers the offline page in the rider's language.
// - A quiz answer that cannot reach the server is kept in IndexedDB, marked with the key of
//   the rider the quiz was shown to (the form's rider_key), and sent later, in order, each once
//   (the form's attempt_id makes a repeat harmless), with the fresh csrf_token of that same
//   rider's session and never under another one. Other riders' answers wait for their rider.
// - Sign-out removes the kept pages. Made offline, it marks the cookie signed out (the server
//   ends the session at the first request that reaches it) and is kept: before any other
//   request once the phone is back online, the worker sends it.
"use strict";

const LANGUAGES = {{ languages | tojson }};
const STATIC = "static";
const RIDER = "rider-";
const KEY_COOKIE = "rider_key";
const KEY = /^[0-9a-f]{32}$/;
const SIGNED_OUT = "signed-out";
const SESSION_MS = 7 * 24 * 3600 * 1000;
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
  // Every page and form (the sign-in's too) and static file goes after a sign-out made
  // offline (afterLeaving); a script's own requests (the assistant's) find the cookie marked.
  if (request.method === "POST") {
    if (QUIZ.test(url.pathname)) event.respondWith(afterLeaving(() => submitQuiz(request)));
    else if (url.pathname === "/sign-out") event.respondWith(signOut(request));
    else if (request.mode === "navigate") event.respondWith(afterLeaving(() => fetch(request)));
  } else if (request.method === "GET") {
    if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
      event.respondWith(afterLeaving(() => staticFile(request)));
    } else if (request.mode === "navigate") {
      event.respondWith(afterLeaving(() => page(event, url)));
    }
  }
});

self.addEventListener("sync", (event) => {
  if (event.tag === "answers") event.waitUntil(sendWaiting());
});

// Messages from offline.js: "status", "send" (try now) and "keep" (a visit to /training this
// worker did not serve). Each answers the status on the port it was given.
// The worker tells every page the status whenever answers were kept or sent, and "sent" (with
// the rider's key and how many) when kept answers reached the server.
self.addEventListener("message", (event) => {
  const work = {
    send: () => sendWaiting(),
    keep: () => afterLeaving(() => fetch("/training", { headers: COPY })).then(keepCopy),
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

// ---- whose session is on the phone

async function keyCookie() {
  if (!self.cookieStore) return null;
  try {
    const cookie = await self.cookieStore.get(KEY_COOKIE);
    return cookie ? cookie.value : null;
  } catch {
    return null;
  }
}

// The key of the rider whose session is on the phone, or null.
async function signedInRider() {
  const value = await keyCookie();
  return value && KEY.test(value) ? value : null;
}

function markSignedOut() {
  if (!self.cookieStore) return Promise.resolve();
  const cookie = { name: KEY_COOKIE, value: SIGNED_OUT, path: "/", sameSite: "lax" };
  return self.cookieStore.set({ ...cookie, expires: Date.now() + SESSION_MS }).catch(() => null);
}

// ---- pages

async function page(event, url) {
  const rider = await signedInRider();
  event.waitUntil(forgetRiders(rider && RIDER + rider));
  const kept = rider && (await caches.match(url.pathname, { cacheName: RIDER + rider }));
  const network = fetch(event.request);
  let response;
  try {
    response = kept ? await withinWait(network) : await network;
  } catch {
    if (!kept) return offlinePage("/offline", rider);
    event.waitUntil(replaceIfEnded(event, network, rider, url));
    return shownOffline(kept);
  }
  if (url.pathname === "/training" && response.ok && !response.redirected) {
    event.waitUntil(keepCopy(response.clone()).then(sendWaiting));
  } else if (response.ok) {
    event.waitUntil(sendWaiting());
  }
  return response;
}

// The kept copy was shown because the server was slow: when it answers at last and the
// session has ended meanwhile (its answer removed the cookie), the copy goes and the page
// shows the server's answer (the sign-in page).
async function replaceIfEnded(event, network, rider, url) {
  try {
    await network;
  } catch {
    return;
  }
  if ((await signedInRider()) === rider) return;
  await forgetRiders();
  const client = await self.clients.get(event.resultingClientId);
  if (client) await client.navigate(url.href).catch(() => null);
}

async function staticFile(request) {
  try {
    const response = await withinWait(fetch(request));
    if (response.ok) await (await caches.open(STATIC)).put(request, response.clone());
    return response;
  } catch {
    return (await caches.match(request, { cacheName: STATIC })) || Response.error();
  }
}

// A kept page as the server would render it: the offline line on, a fresh attempt_id in a
// quiz form.
async function shownOffline(kept) {
  const html = (await kept.text())
    .replace('id="offline-line" hidden', 'id="offline-line"')
    .replace(ATTEMPT_ID, () => `name="attempt_id" value="${self.crypto.randomUUID()}"`);
  return new Response(html, { headers: kept.headers });
}

// The language of the rider's kept /training; else the phone's, if the app has it.
async function riderLanguage(rider) {
  const training = rider && (await caches.match("/training", { cacheName: RIDER + rider }));
  const found = training && PAGE_LANGUAGE.exec(await training.text());
  if (found && LANGUAGES.includes(found[1])) return found[1];
  const phone = (self.navigator.languages || []).map((tag) => tag.slice(0, 2));
  return phone.find((lang) => LANGUAGES.includes(lang)) || "en";
}

async function offlinePage(path, rider) {
  const lang = await riderLanguage(rider);
  const kept = await caches.match(`${path}?lang=${lang}`, { cacheName: STATIC });
  return kept || new Response("Offline", { status: 503 });
}

// Removes every rider's kept pages but those of the cache named `except`.
async function forgetRiders(except) {
  const names = (await caches.keys()).filter((key) => key.startsWith(RIDER) && key !== except);
  await Promise.all(names.map((name) => caches.delete(name)));
}

// ---- the kept copy

async function inTurns(items, work) {
  const queue = [...items];
  const worker = async () => {
    while (queue.length) await work(queue.shift());
  };
  await Promise.all(Array.from({ length: KEEPING_AT_ONCE }, worker));
}

// The page at `path` fetched for `rider`'s copy and kept; its HTML (or the copy kept before,
// when the network fails), or null when the rider may no longer open it.
async function keep(cache, rider, path, kept) {
  let response;
  try {
    response = await fetch(path, { headers: COPY });
  } catch {
    const before = await cache.match(path);
    if (!before) return null;
    kept.add(path);
    return before.text();
  }
  if (!response.ok || response.redirected || (await signedInRider()) !== rider) return null;
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
  const rider = await signedInRider();
  // Only the page of the rider whose session is on the phone, kept under that rider's key.
  if (!rider || (RIDER_META.exec(html) || [])[1] !== rider) return;
  const name = RIDER + rider;
  await forgetRiders(name);
  const cache = await caches.open(name);
  await cache.put("/training", new Response(html, { headers: training.headers }));
  const kept = new Set(["/training"]);
  const pages = [];
  await inTurns(links(html, OPEN_COURSE), async (course) => {
    const coursePage = await keep(cache, rider, course, kept);
    const own = new RegExp(`href="(${course}/(?:lessons/\\d+|quiz))"`, "g");
    if (coursePage) pages.push(...links(coursePage, own));
  });
  await inTurns(pages, (path) => keep(cache, rider, path, kept));
  // Signed out (or the session ended) while the copy was kept: none of it stays.
  if ((await signedInRider()) !== rider) {
    await caches.delete(name);
    return;
  }
  // Courses finished or no longer assigned leave the copy.
  for (const request of await cache.keys()) {
    if (!kept.has(new URL(request.url).pathname)) await cache.delete(request);
  }
}

// ---- quiz answers kept and sent once; a sign-out made offline

// "answers": the quiz forms kept, oldest first, each with its rider's key. "leaving" (key
// "rider"): the sign-out made offline, { rider, body } (the form, with its csrf_token).
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

// Read once a worker's life and kept up to date: every request asks.
let left = null;
function leaving() {
  left ||= stored("leaving", "readonly", (store) => store.get("rider")).then(
    // A sign-out kept by the worker before this one: its rider's key alone.
    (kept) => (typeof kept === "string" ? { rider: kept, body: "" } : kept || null),
  );
  return left;
}

async function setLeaving(signOutMade) {
  await stored("leaving", "readwrite", (store) =>
    signOutMade ? store.put(signOutMade, "rider") : store.clear(),
  );
  left = Promise.resolve(signOutMade);
}

let ending = null;

// The sign-out made offline, sent now: one at a time, however many requests ask.
function endLeftSession() {
  ending ||= endSession()
    .catch(() => null)
    .finally(() => {
      ending = null;
    });
  return ending;
}

async function endSession() {
  const signOutMade = await leaving();
  if (!signOutMade) return;
  const now = await signedInRider();
  if (now && now !== signOutMade.rider) {
    // Another rider's session is on the phone now: the cookie of the one signed out is gone.
    await setLeaving(null);
    return;
  }
  await markSignedOut();
  const body = new URLSearchParams(signOutMade.body);
  try {
    await fetch("/sign-out", { method: "POST", body, redirect: "manual" });
  } catch {
    return; // Still offline.
  }
  await setLeaving(null);
  await forgetRiders();
}

// `work()`, once a sign-out made offline has gone first: its request leaves before any other
// and is waited for (at most NETWORK_WAIT_MS: past that, the cookie marked signed out makes
// the server end the session at whichever request reaches it first).
async function afterLeaving(work) {
  await withinWait(endLeftSession()).catch(() => null);
  return work();
}

async function submitQuiz(request) {
  const body = await request.clone().text();
  const answer = {
    rider: new URLSearchParams(body).get("rider_key") || (await signedInRider()),
    path: new URL(request.url).pathname,
    body,
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
  return offlinePage("/offline/saved", await signedInRider());
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

// One sending at a time, each after the one before (so it reads the answers kept since): a
// sign-out made offline first, then the waiting answers of the rider signed in now, oldest
// first. A map of answer id to the server's response for the answers sent.
function sendWaiting() {
  sending = sending.catch(() => null).then(send);
  return sending;
}

async function send() {
  const sent = new Map();
  await endLeftSession();
  const rider = await signedInRider();
  const waiting = (await waitingAnswers()).filter((kept) => rider && kept.rider === rider);
  if (!waiting.length) return sent;
  let training;
  try {
    training = await fetch("/training", { headers: COPY, redirect: "manual" });
  } catch {
    return sent;
  }
  const html = training.ok ? await training.text() : "";
  const token = (CSRF.exec(html) || [])[1];
  // Still that rider's session: the page names them, and the cookie does after its answer.
  const same = (RIDER_META.exec(html) || [])[1] === rider && (await signedInRider()) === rider;
  for (const answer of same ? waiting : []) {
    const body = new URLSearchParams(answer.body);
    body.set("csrf_token", token);
    let response;
    try {
      response = await fetch(answer.path, { method: "POST", body, redirect: "manual" });
    } catch {
      break;
    }
    if (signInNeeded(response) || tryLater(response)) break;
    // Recorded, or refused for good (a course no longer assigned, a quiz that changed, a
    // form the server finds another rider's): sending it again could never succeed.
    await stored("answers", "readwrite", (store) => store.delete(answer.id));
    sent.set(answer.id, response);
  }
  await broadcast(await status());
  // The rider's open pages show the results now (offline.js), and so do the kept pages (a
  // course passed leaves an assignment finished).
  if (sent.size) await broadcast({ type: "sent", rider, count: sent.size });
  if (sent.size) await fetch("/training", { headers: COPY }).then(keepCopy, () => null);
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
  const rider = await signedInRider();
  const body = await request.clone().text();
  let response;
  try {
    response = await afterLeaving(() => fetch(request));
  } catch {
    // Offline: the copy goes now, the cookie says signed out, and the session ends at the
    // server before anything else once the phone is back (afterLeaving). (Without a rider
    // key, a sign-out kept before stays the one to send.)
    if (rider || !(await leaving())) await setLeaving({ rider, body });
    await markSignedOut();
    response = await offlinePage("/offline", rider);
  }
  await forgetRiders();
  return response;
}
