// Arena's pages work without this script; with it, a replay steps without reloading (buttons and arrow keys)
// and a running tournament's page follows its results. Pages come from the server already escaped; nothing
// here builds markup from data.
"use strict";

async function fetchPage(url) {
  const response = await fetch(url, { headers: { Accept: "text/html" } });
  if (!response.ok) {
    throw new Error(`${url}: ${response.status}`);
  }
  return new DOMParser().parseFromString(await response.text(), "text/html");
}

function swap(selector, page) {
  const fresh = page.querySelector(selector);
  const old = document.querySelector(selector);
  if (fresh && old) {
    old.replaceWith(document.adoptNode(fresh));
  }
  return fresh;
}

// --- a replay -------------------------------------------------------------------------------------------------

async function goToStep(url, push) {
  const page = await fetchPage(url);
  swap("#replay", page);
  swap("nav.turns", page);
  document.title = page.title;
  if (push) {
    history.pushState(null, "", url);
  }
  const heading = document.getElementById("step-title");
  if (heading) {
    heading.focus({ preventScroll: true });
  }
}

function setUpReplay() {
  if (!document.getElementById("replay")) {
    return;
  }
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("#replay a[data-nav], nav.turns a") : null;
    if (link && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      goToStep(link.href, true).catch(() => { window.location.href = link.href; });
    }
  });
  const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey || (target instanceof HTMLElement && target.isContentEditable)
        || target instanceof HTMLInputElement) {
      return;
    }
    const nav = keys[event.key];
    const link = nav ? document.querySelector(`#replay a[data-nav="${nav}"]`) : null;
    if (link) {
      event.preventDefault();
      goToStep(link.href, true).catch(() => { window.location.href = link.href; });
    }
  });
  window.addEventListener("popstate", () => {
    goToStep(window.location.href, false).catch(() => window.location.reload());
  });
}

// --- a running tournament -------------------------------------------------------------------------------------

const FOLLOW_EVERY_MS = 2000;

function setUpTournament() {
  const live = document.querySelector("#tournament[data-live]");
  if (!live) {
    return;
  }
  const follow = async () => {
    try {
      const page = await fetchPage(window.location.href);
      const fresh = page.querySelector("#tournament");
      const shown = document.querySelector("#tournament");
      if (fresh && shown && fresh.dataset.version !== shown.dataset.version) {
        swap("#tournament", page);
      }
      if (!fresh || !fresh.hasAttribute("data-live")) {
        return; // over: nothing more to follow
      }
    } catch (error) {
      // a network hiccup: try again at the next tick
    }
    window.setTimeout(follow, FOLLOW_EVERY_MS);
  };
  window.setTimeout(follow, FOLLOW_EVERY_MS);
}

setUpReplay();
setUpTournament();
