// offline-page.js: the referee page's offline controls, and its answers when the server
// cannot be reached (the checking itself is offline.js).
//
// * registers the service worker (sw.js), which keeps the page and the saved packs; saving a
//   game waits for the worker and has it keep the page and the games list too;
// * the bar in the footer: "Save for offline use" for the chosen game, which release is
//   saved and when, a newer release on the server (offered, never mixed in: a pack is one
//   release, replaced whole), and the rulings made offline with their export;
// * answer(): what app.js asks when a request failed for want of a network. Look-ups and
//   joker fillings come from the saved pack; judge rulings too, kept on this device (the
//   server's log cannot be written) and exportable as JSON lines.
"use strict";

const OfflinePage = (() => {
  const TEXT = {
    en: { noPack: "No network, and this game is not saved for offline use on this device.",
          save: "Save for offline use", update: "Update to", saved: (r, d) => `Saved for offline use: ${r}, ${d}`,
          notSaved: "Not saved for offline use", saving: "Saving…", newer: (r) => `Newer release on the server: ${r}`,
          offline: (r, d) => `Answered on this device with no network, from ${r} (saved ${d}).`,
          needsServer: "Analyses, meanings and the detailed reason need the server.",
          rulings: (n) => `${n} offline ruling(s) kept on this device`, export: "Export rulings",
          kept: "Offline ruling, kept on this device.", failed: "Could not save: ",
          noWorker: "this browser cannot keep the page for use without a network" },
    pl: { noPack: "Brak sieci, a ta gra nie jest zapisana do pracy bez sieci na tym urządzeniu.",
          save: "Zapisz do pracy bez sieci", update: "Zaktualizuj do", saved: (r, d) => `Zapisano do pracy bez sieci: ${r}, ${d}`,
          notSaved: "Nie zapisano do pracy bez sieci", saving: "Zapisywanie…", newer: (r) => `Nowsze wydanie na serwerze: ${r}`,
          offline: (r, d) => `Odpowiedź z tego urządzenia, bez sieci, z wydania ${r} (zapisano ${d}).`,
          needsServer: "Analizy, znaczenia i szczegółowy powód wymagają serwera.",
          rulings: (n) => `Orzeczenia bez sieci zapisane na urządzeniu: ${n}`, export: "Eksportuj orzeczenia",
          kept: "Orzeczenie bez sieci, zapisane na tym urządzeniu.", failed: "Nie udało się zapisać: ",
          noWorker: "ta przeglądarka nie może zachować strony do pracy bez sieci" },
    sr: { noPack: "Nema mreže, a ova igra nije sačuvana za rad bez mreže na ovom uređaju.",
          save: "Sačuvaj za rad bez mreže", update: "Ažuriraj na", saved: (r, d) => `Sačuvano za rad bez mreže: ${r}, ${d}`,
          notSaved: "Nije sačuvano za rad bez mreže", saving: "Čuvanje…", newer: (r) => `Novije izdanje na serveru: ${r}`,
          offline: (r, d) => `Odgovor sa ovog uređaja, bez mreže, iz izdanja ${r} (sačuvano ${d}).`,
          needsServer: "Analize, značenja i detaljan razlog zahtevaju server.",
          rulings: (n) => `Odluke bez mreže sačuvane na uređaju: ${n}`, export: "Izvezi odluke",
          kept: "Odluka bez mreže, sačuvana na ovom uređaju.", failed: "Čuvanje nije uspelo: ",
          noWorker: "ovaj pregledač ne može da sačuva stranicu za rad bez mreže" },
    "sr-Cyrl": { noPack: "Нема мреже, а ова игра није сачувана за рад без мреже на овом уређају.",
          save: "Сачувај за рад без мреже", update: "Ажурирај на", saved: (r, d) => `Сачувано за рад без мреже: ${r}, ${d}`,
          notSaved: "Није сачувано за рад без мреже", saving: "Чување…", newer: (r) => `Новије издање на серверу: ${r}`,
          offline: (r, d) => `Одговор са овог уређаја, без мреже, из издања ${r} (сачувано ${d}).`,
          needsServer: "Анализе, значења и детаљан разлог захтевају сервер.",
          rulings: (n) => `Одлуке без мреже сачуване на уређају: ${n}`, export: "Извези одлуке",
          kept: "Одлука без мреже, сачувана на овом уређају.", failed: "Чување није успело: ",
          noWorker: "овај прегледач не може да сачува страницу за рад без мреже" },
    sl: { noPack: "Ni omrežja, ta igra pa na tej napravi ni shranjena za delo brez omrežja.",
          save: "Shrani za delo brez omrežja", update: "Posodobi na", saved: (r, d) => `Shranjeno za delo brez omrežja: ${r}, ${d}`,
          notSaved: "Ni shranjeno za delo brez omrežja", saving: "Shranjujem…", newer: (r) => `Novejša izdaja na strežniku: ${r}`,
          offline: (r, d) => `Odgovor s te naprave, brez omrežja, iz izdaje ${r} (shranjeno ${d}).`,
          needsServer: "Analize, pomeni in podroben razlog zahtevajo strežnik.",
          rulings: (n) => `Odločitve brez omrežja, shranjene na napravi: ${n}`, export: "Izvozi odločitve",
          kept: "Odločitev brez omrežja, shranjena na tej napravi.", failed: "Shranjevanje ni uspelo: ",
          noWorker: "ta brskalnik ne more shraniti strani za delo brez omrežja" },
  };
  const byId = (id) => document.getElementById(id);
  const lang = () => (byId("lang") && TEXT[byId("lang").value] ? byId("lang").value : "en");
  const tx = (key, ...args) => { const v = TEXT[lang()][key]; return typeof v === "function" ? v(...args) : v; };
  const game = () => byId("game").value;
  const when = (iso) => (iso ? new Date(iso).toLocaleString(lang() === "sr-Cyrl" ? "sr" : lang()) : "");

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const c of children) node.append(c);
    return node;
  }

  // -- the bar ---------------------------------------------------------------------------------
  async function render() {
    const bar = byId("offline-bar");
    if (!bar || !game()) return;
    const saved = Offline.savedPacks()[game()];
    const status = el("span", { id: "offline-status" }, saved ? tx("saved", saved.release, when(saved.saved_at)) : tx("notSaved"));
    const save = el("button", { type: "button", id: "offline-save" }, tx("save"));
    save.addEventListener("click", () => saveNow(save));
    save.hidden = !!saved;           // shown again below when the server has a newer one
    const parts = [status, save];
    const n = Offline.rulings().length;
    if (n) {
      const exp = el("button", { type: "button", id: "offline-export" }, tx("export"));
      exp.addEventListener("click", exportRulings);
      parts.push(el("span", { id: "offline-rulings" }, tx("rulings", n)), exp);
    }
    bar.replaceChildren(...parts);
    if (saved && navigator.onLine !== false) {
      const newer = await Offline.newer(game());
      if (newer) {
        status.after(el("span", { id: "offline-newer" }, " · " + tx("newer", newer)));
        save.textContent = tx("update") + " " + newer;
        save.hidden = false;
      }
    }
  }

  // Everything a saved game needs to open by a new navigation with no network (the
  // home-screen icon, a deep link): the service worker active (its install kept the page's
  // files) and, kept by it, the page and the games list in every interface language.
  async function keepPage() {
    if (!("serviceWorker" in navigator)) throw new Error(tx("noWorker"));
    await navigator.serviceWorker.register("/sw.js");
    const registration = await navigator.serviceWorker.ready;
    const answer = await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data || {});
      registration.active.postMessage({ type: "keep", langs: Object.keys(UI_TEXT) }, [channel.port2]);
    });
    if (answer.error) throw new Error(answer.error);
  }

  // The bar says *Saved* only once both the page and the game's pack are on the device.
  async function saveNow(button) {
    button.disabled = true;
    button.textContent = tx("saving");
    try {
      await keepPage();
      await Offline.save(game());
    } catch (err) {
      byId("offline-status").textContent = tx("failed") + (err && err.message ? err.message : String(err));
      button.disabled = false;
      return;
    }
    await render();
  }

  function exportRulings() {
    const blob = new Blob([Offline.exportRulings()], { type: "application/x-ndjson" });
    const a = el("a", { href: URL.createObjectURL(blob), download: "offline-rulings.jsonl" });
    document.body.append(a);
    a.click();
    a.remove();
  }

  // -- answers with no network -------------------------------------------------------------------
  // `ask`: {kind: "check" | "blanks" | "judge", game, word | words, edge, lang}; with no pack
  // saved for the game, an error that says so.
  async function answer(ask) {
    const pack = await Offline.load(ask.game);
    if (!pack) throw new Offline.OfflineError("offline_not_saved", tx("noPack"));
    if (ask.kind === "judge") {
      const ruling = pack.judge(ask.words, { edge: ask.edge });
      Offline.keepRuling(ruling, ask.words, ask.edge);
      render();
      return ruling;
    }
    if (ask.kind === "blanks") return pack.blanks(ask.word, { edge: ask.edge });
    const verdict = pack.check(ask.word, { edge: ask.edge, lang: ask.lang });
    return { ...verdict, analyses: [], meanings: [], sources: [], evidence: [], category: null };
  }

  // A request to the server gives up after this long once the game is saved here: a hall's
  // poor Wi-Fi that neither answers nor fails is no network either.
  const SERVER_WAIT_MS = 4000;
  function signal(gameId) {
    return Offline.savedPacks()[gameId] && AbortSignal.timeout ? AbortSignal.timeout(SERVER_WAIT_MS) : undefined;
  }
  // Did a request fail for want of the server (rather than with the server's answer)?
  function unreachable(err) {
    return err instanceof TypeError || (err && (err.name === "TimeoutError" || err.name === "AbortError"));
  }

  // After app.js showed an answer: an offline one says so, and what needs the server.
  function shown(r) {
    for (const id of ["offline-note", "offline-ruling-note"]) { const n = byId(id); if (n) n.remove(); }
    if (!r || !r.offline) return;
    const saved = Offline.savedPacks()[r.game] || {};
    if (r.verdict) {          // a ruling: nothing per word, as the judge never shows it
      byId("judge-detail").after(el("p", { id: "offline-ruling-note", class: "hint offline-note" }, tx("kept")));
      return;
    }
    byId("meanings").replaceChildren();
    byId("analyses").replaceChildren();
    byId("verdict").after(el("p", { id: "offline-note", class: "offline-note" },
      tx("offline", r.release, when(saved.saved_at)), " ", el("em", {}, tx("needsServer"))));
  }

  function start() {
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
    const select = byId("game");
    select.addEventListener("change", render);
    byId("lang").addEventListener("change", render);
    window.addEventListener("online", render);
    // the games arrive from the server (or the kept copy) after this script runs
    new MutationObserver(() => render()).observe(select, { childList: true });
    render();
  }

  start();
  return { answer, shown, render, signal, unreachable };
})();
