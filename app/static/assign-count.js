// The assign page (/admin/assign): as paths, filters and pasted IDs change, asks
// GET /admin/assign/count for how many riders the form would assign and says so under the
// form (docs/admin-riders.md, "Assign"). Only a hint: the Preview button and the
// confirm's expected count stay the authority, and without this script the page works alike.
"use strict";

(() => {
  const form = document.getElementById("assign-form");
  const line = document.getElementById("assign-count");
  if (!form || !line) return;
  let asked = 0;
  let timer;

  const riders = (n) => `${n.toLocaleString("en")} ${n === 1 ? "rider" : "riders"}`;

  async function count() {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (name !== "csrf_token" && name !== "confirm" && name !== "expected_count") {
        query.append(name, value);
      }
    }
    if (!query.get("path_id")) {
      line.textContent = "";
      return;
    }
    const ask = ++asked;
    try {
      const answer = await fetch(`/admin/assign/count?${query}`, {
        headers: { Accept: "application/json" },
      });
      const body = await answer.json();
      if (ask !== asked) return; // a later change asked again
      line.textContent = answer.ok
        ? `With these choices: ${riders(body.would_create)} would be assigned.`
        : body.error;
    } catch {
      if (ask === asked) line.textContent = "";
    }
  }

  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(count, 300);
  };
  form.addEventListener("change", later);
  form.addEventListener("input", later);
  count();
})();
