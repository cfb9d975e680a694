/* SEVN: small enhancements on server-rendered pages. Everything works without it; with it
   you get keyboard play, the turn countdown, the round summary sheet and the rulebook demos. */
(function () {
  "use strict";

  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  /* ---------- the live table ---------- */

  function table() { return document.getElementById("table"); }
  function shell() { return document.querySelector(".table-shell"); }
  function remembered(key) { try { return window.sessionStorage.getItem(key); } catch (e) { return null; } }
  function remember(key, value) { try { window.sessionStorage.setItem(key, value); } catch (e) { /* private mode */ } }

  // Key hints show where a keyboard is in use: always with a fine pointer, and on a touch
  // screen once a key is pressed (the style reads this class).
  document.addEventListener("keydown", function () { document.documentElement.classList.add("uses-keyboard"); }, true);

  // Keyboard: each button's key comes from its label in the page's language (data-key, drawn by
  // the server: Draw is D, Ziehen is Z), digits pick a choice; never while typing in a field.
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (event.key === "Escape") { closeCardRule(); return; }
    var controls = document.getElementById("controls");
    if (!controls || !event.key) return;
    var key = event.key.toLowerCase();
    var button = controls.querySelector('[data-key="' + (window.CSS && CSS.escape ? CSS.escape(key) : key) + '"]');
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // A move carries the table its screen shows (#table-meta, swapped in with every change):
  // the version it was made on, and the game's number. The server refuses a move on an older
  // table, so of two identical moves only one applies, and none lands in a rematch.
  document.addEventListener("htmx:wsConfigSend", function (event) {
    var meta = document.getElementById("table-meta");
    if (!meta || !event.target.closest || !event.target.closest("#table")) return;
    event.detail.parameters.version = meta.dataset.version;
    event.detail.parameters.game = meta.dataset.game;
  });

  // One click per decision: disable the bar until the table moves on or the move is refused.
  document.addEventListener("htmx:wsBeforeSend", function (event) {
    var controls = document.getElementById("controls");
    var meta = document.getElementById("table-meta");
    if (controls && controls.contains(event.target)) {
      focusWasInControls = true;
      controls.dataset.sentOn = meta ? meta.dataset.version : "";
      controls.querySelectorAll("button:not([disabled])").forEach(function (b) {
        b.disabled = true;
        b.setAttribute("data-sending", "");
      });
      controls.classList.add("is-sending");
    }
  });

  // Countdown ring for the pending decision.
  var countdownTimer = null;
  function startCountdown() {
    if (countdownTimer) { clearInterval(countdownTimer); countdownTimer = null; }
    var t = table(), meta = document.getElementById("table-meta");
    if (!t || !meta || !meta.dataset.deadline) return;
    var deadline = Number(meta.dataset.deadline);
    var offset = Number(meta.dataset.now) - Date.now();
    var total = Number(meta.dataset.timer || 0) * 1000;
    var ring = t.querySelector(".countdown__ring");
    var text = t.querySelector(".countdown__text");
    var box = t.querySelector(".countdown");
    function tick() {
      var left = Math.max(0, deadline - (Date.now() + offset));
      var seconds = Math.ceil(left / 1000);
      if (text) text.textContent = seconds;
      if (ring && total) ring.style.strokeDashoffset = String(100 - Math.min(100, (left / total) * 100));
      if (box) box.classList.toggle("is-low", left < 5000);
      if (left <= 0 && countdownTimer) { clearInterval(countdownTimer); countdownTimer = null; }
    }
    tick();
    countdownTimer = setInterval(tick, 250);
  }

  /* The sticky panel at the bottom of the table (the dock; at game over only the rematch bar):
     its height in --dock-space, so that scrolling into view leaves it out and a sheet above the
     table is never taller than the screen above it (sevn.css). */
  var panelWatch = window.ResizeObserver ? new ResizeObserver(measurePanel) : null;
  var watchedPanel = null;
  function bottomPanel() {
    var t = table();
    if (!t) return null;
    var found = t.querySelectorAll(".table__dock, .table__dock > .controls");
    for (var i = 0; i < found.length; i++) {
      var style = window.getComputedStyle(found[i]);
      if (style.position === "sticky" && style.display !== "contents") return found[i];
    }
    return null;
  }
  function measurePanel() {
    var panel = bottomPanel();
    var height = panel ? Math.ceil(panel.getBoundingClientRect().height) : 0;
    document.documentElement.style.setProperty("--dock-space", height + "px");
    if (panelWatch && panel !== watchedPanel) {
      if (watchedPanel) panelWatch.unobserve(watchedPanel);
      if (panel) panelWatch.observe(panel);
      watchedPanel = panel;
    }
  }
  window.addEventListener("resize", measurePanel);

  /* The round summary: a panel at the top of the table that never stops play (no modal, no
     cover over the controls); it opens once per scored round and stays closed once closed. */
  function summaryKey(panel) {
    var meta = document.getElementById("table-meta");
    var s = shell();
    return "sevn:summary:" + (s ? s.dataset.code : "") + ":" + (meta ? meta.dataset.game : "") + ":" + panel.dataset.round;
  }
  function showSummary(force) {
    var panel = document.getElementById("summary");
    if (!panel) return;
    var meta = document.getElementById("table-meta");
    var fresh = meta && meta.hasAttribute("data-show-summary");
    if (fresh) meta.removeAttribute("data-show-summary");  // once per scored round
    var closed = remembered(summaryKey(panel)) === "closed";
    if (force) {
      remember(summaryKey(panel), "open");
      panel.hidden = false;
      panel.scrollIntoView({ block: "nearest", behavior: reduceMotion ? "auto" : "smooth" });
    } else if ((fresh && !closed) || remembered(summaryKey(panel)) === "open") {
      if (fresh) remember(summaryKey(panel), "open");
      panel.hidden = false;
      if (fresh) panel.scrollIntoView({ block: "nearest", behavior: reduceMotion ? "auto" : "smooth" });
    }
  }
  function closeSummary() {
    var panel = document.getElementById("summary");
    if (!panel) return;
    remember(summaryKey(panel), "closed");
    panel.hidden = true;
  }

  // The scoreboard: open or closed as this tab left it (always open at game over).
  function applyScores() {
    var panel = document.getElementById("scores");
    var s = shell();
    if (!panel || panel.classList.contains("scores--over")) return;
    var open = remembered("sevn:scores:" + (s ? s.dataset.code : "")) === "open";
    panel.hidden = !open;
    document.querySelectorAll("[data-toggle-scores]").forEach(function (b) { b.setAttribute("aria-expanded", String(open)); });
  }
  function toggleScores() {
    var panel = document.getElementById("scores");
    var s = shell();
    if (!panel) return;
    if (panel.classList.contains("scores--over")) { panel.scrollIntoView({ block: "start" }); return; }
    remember("sevn:scores:" + (s ? s.dataset.code : ""), panel.hidden ? "open" : "closed");
    applyScores();
    if (!panel.hidden) panel.scrollIntoView({ block: "nearest" });
  }

  // Game over is a moment: the winner is brought into view once per game.
  function showGameOver() {
    var standings = document.getElementById("standings");
    var meta = document.getElementById("table-meta");
    var s = shell();
    if (!standings || !meta || !s) return;
    var key = "sevn:over:" + s.dataset.code + ":" + meta.dataset.game;
    if (remembered(key)) return;
    remember(key, "seen");
    standings.scrollIntoView({ block: "nearest" });
  }

  /* Your turn: the tab's title and icon change, an optional sound plays (off unless chosen,
     remembered per browser), and a polite announcement says it. */
  var myTurn = false;
  var baseTitle = document.title;
  var baseIcon = null;
  var audio = null;
  function soundOn() { try { return window.localStorage.getItem("sevn:sound") === "on"; } catch (e) { return false; } }
  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    var now = audio.currentTime;
    [660, 880].forEach(function (pitch, i) {
      var tone = audio.createOscillator(), gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, now + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.18, now + i * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.22);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + i * 0.14);
      tone.stop(now + i * 0.14 + 0.25);
    });
  }
  function showSound() {
    document.querySelectorAll("[data-sound]").forEach(function (b) { b.setAttribute("aria-pressed", String(soundOn())); });
  }
  function toggleSound() {
    try { window.localStorage.setItem("sevn:sound", soundOn() ? "off" : "on"); } catch (e) { return; }
    showSound();
    if (soundOn()) beep();  // a click lets the page make sounds from now on; this one says how it sounds
  }
  function markTurn() {
    var s = shell();
    var controls = document.querySelector("#controls.controls--active");
    var yours = !!controls;
    var icon = document.querySelector('link[rel="icon"]');
    if (icon && baseIcon === null) baseIcon = icon.getAttribute("href");
    if (s && yours !== myTurn) {
      document.title = yours ? "● " + s.dataset.turnTitle + " · " + baseTitle : baseTitle;
      if (icon) icon.setAttribute("href", yours ? s.dataset.turnIcon : baseIcon);
      var say = document.getElementById("turn-announce");
      if (say) say.textContent = yours ? s.dataset.turnTitle : "";
      if (yours && soundOn()) beep();
    }
    myTurn = yours;
  }

  /* Focus survives redraws: a swapped-in piece takes the focus away with the element it
     replaced. It comes back to the control that makes sense: the first choice when it is your
     decision (Draw), or the decision bar. Focus elsewhere (the log, a link) is left alone. */
  var focusWasInControls = false;
  var focusedCard = null;  // {piece, at}: the card that had the focus, by its piece's id and place
  document.addEventListener("htmx:oobBeforeSwap", function () {
    var active = document.activeElement;
    if (active && active.closest && active.closest("#table .lobby")) lobbyFocus = lobbyControl(active);
    var controls = document.getElementById("controls");
    if (active && controls && controls.contains(active)) focusWasInControls = true;
    if (active && active.matches && active.matches(".card[data-code]")) {
      var piece = active.closest("[id]");
      if (piece) focusedCard = { piece: piece.id, at: cardsOf(piece).indexOf(active) };
    }
  });
  function cardBack() {
    var was = focusedCard;
    focusedCard = null;
    var piece = was && document.getElementById(was.piece);
    if (!piece) return false;
    var cards = cardsOf(piece);
    var card = cards[Math.min(was.at, cards.length - 1)];
    if (!card) return false;
    card.focus({ preventScroll: true });
    return true;
  }
  function restoreFocus(turnStarted) {
    var active = document.activeElement;
    var lost = !active || active === document.body || !active.isConnected;
    if (lost && !focusWasInControls && cardBack()) return;
    var inControls = !lost && !!(active.closest && active.closest("#controls"));
    var wasInControls = focusWasInControls;
    focusWasInControls = false;
    if (!lost && !inControls) return;  // where the person put it
    var controls = document.getElementById("controls");
    if (!controls) return;
    if (controls.classList.contains("controls--active")) {
      if (inControls && !turnStarted) return;  // on a choice already
      var first = controls.querySelector("button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    } else if (lost && wasInControls) {
      controls.focus({ preventScroll: true });
    }
  }

  /* A form's answer can arrive after the socket redrew the part that held the form (a lobby
     button, the composer): htmx would look for the toast's place inside the detached form and
     find none. Such an answer's out-of-band parts go to the page itself. */
  document.addEventListener("htmx:beforeRequest", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || !target.addEventListener) return;
    function answered(swap) {
      if (swap.target !== target) return;
      target.removeEventListener("htmx:beforeSwap", answered);
      if (target.isConnected || !swap.detail.shouldSwap) return;
      swap.detail.shouldSwap = false;
      var html = swap.detail.serverResponse;
      if (typeof html === "string" && html.indexOf("hx-swap-oob") >= 0) {
        window.htmx.swap(document.body, html, { swapStyle: "none" });
      }
    }
    target.addEventListener("htmx:beforeSwap", answered);
  });

  var shownVersion = null;  // the table version last drawn (#table-meta)
  function afterRedraw(event) {
    // The choices come back once the table has moved on (a decision like the last one keeps its
    // controls, so they are not sent again) or when this player's move was refused; a chat
    // line or a presence mark arriving meanwhile leaves them disabled.
    var meta = document.getElementById("table-meta");
    var version = meta ? meta.dataset.version : null;
    var message = event && event.detail && event.detail.message;
    var refused = typeof message === "string" && message.indexOf('class="toast"') >= 0;
    var sending = document.querySelector("#controls.is-sending");
    if (sending && (refused || version !== sending.dataset.sentOn)) {
      sending.classList.remove("is-sending");
      sending.querySelectorAll("button[data-sending]").forEach(function (b) {
        b.disabled = false;
        b.removeAttribute("data-sending");
      });
    }
    var moved = version !== shownVersion;
    shownVersion = version;
    var was = myTurn;
    startCountdown();
    measurePanel();
    showSummary(false);
    applyScores();
    showSound();
    showGameOver();
    markTurn();
    focusableCards();
    handStops();
    restoreFocus(myTurn && (!was || moved));  // a new decision, even one like the last
    lobbyFocusBack();
    var log = document.getElementById("log-list");
    if (log) log.scrollTop = log.scrollHeight;
  }

  document.addEventListener("htmx:wsAfterMessage", afterRedraw);
  document.addEventListener("htmx:afterSwap", afterRedraw);

  /* The lobby is drawn again whole with every change, and the control that had the focus goes
     with it: the focus comes back to the same control, or after "Add bot" (its seat is taken
     now) to the next free seat's "Add bot", then to Start; after "Remove", to that seat's "Add
     bot". */
  var lobbyFocus = null;  // {id, action, index} of the lobby control that had the focus
  function lobbyControl(element) {
    var form = element.closest("form");
    var index = form && form.querySelector('input[name="index"]');
    return { id: element.id || null, action: element.dataset.action || (form ? form.getAttribute("action") : ""), index: index ? Number(index.value) : null };
  }
  function addBotAt(lobby, index) {
    var field = lobby.querySelector('form input[name="index"][value="' + index + '"]');
    return field ? field.form.querySelector('[data-action="add-bot"]') : null;
  }
  function lobbyFocusBack() {
    var was = lobbyFocus;
    lobbyFocus = null;
    var lobby = document.querySelector("#table .lobby");
    var active = document.activeElement;
    if (!was || !lobby || (active && active !== document.body && active.isConnected)) return;
    var target = was.id ? document.getElementById(was.id) : null;
    if (!target && was.index !== null) {
      var field = lobby.querySelector('form input[name="index"][value="' + was.index + '"]');
      var same = field && Array.prototype.filter.call(field.form.querySelectorAll("button, select"), function (control) {
        return lobbyControl(control).action === was.action;
      })[0];
      target = same || addBotAt(lobby, was.index);
    }
    if (!target && was.action === "add-bot") {
      var free = Array.prototype.slice.call(lobby.querySelectorAll('[data-action="add-bot"]'));
      target = free.filter(function (button) { return lobbyControl(button).index > was.index; })[0] || free[0] || null;
    }
    if (!target) {
      var start = lobby.querySelector('[data-action="start"]');
      target = start && !start.disabled ? start : lobby.querySelector("#invite-link");
    }
    if (target) target.focus();
  }

  /* Your hand (Sevens) is one Tab stop: Tab lands on a card you can play, the arrows move over
     every card (those you cannot play too), Enter plays a playable card or shows why another
     does not fit. Which playable card was the stop is kept across redraws. */
  var HAND = "#controls .sevens-hand__cards";
  var handStop = null;  // the code of the playable card that is the hand's stop
  function handItems(hand) {
    return Array.prototype.map.call(hand.querySelectorAll(".sevens-hand__card"), function (item) {
      return item.querySelector(".sevens-play") || item.querySelector(".card[data-code]");
    }).filter(Boolean);
  }
  function codeOf(item) { return item.dataset.card || item.dataset.code; }
  function handStops(focused) {
    var hand = document.querySelector(HAND);
    if (!hand) return;
    var items = handItems(hand);
    var playable = items.filter(function (item) { return item.matches(".sevens-play"); });
    var kept = playable.filter(function (item) { return codeOf(item) === handStop; })[0];
    var stop = focused || kept || playable[0] || items[0];
    items.forEach(function (item) { item.tabIndex = item === stop ? 0 : -1; });
  }
  document.addEventListener("focusin", function (event) {
    var item = event.target;
    if (!item.closest || !item.closest(HAND)) return;
    if (item.matches(".sevens-play")) handStop = codeOf(item);
    handStops(item);
  });
  document.addEventListener("focusout", function (event) {
    var hand = event.target.closest && event.target.closest(HAND);
    if (hand && !hand.contains(event.relatedTarget)) handStops();  // Tab comes back to a playable card
  });
  document.addEventListener("keydown", function (event) {
    var hand = event.target.closest && event.target.closest(HAND);
    if (!hand || event.ctrlKey || event.metaKey || event.altKey) return;
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step && event.key !== "Home" && event.key !== "End") return;
    var items = handItems(hand);
    var at = items.indexOf(event.target);
    var next = event.key === "Home" ? 0 : event.key === "End" ? items.length - 1
      : Math.max(0, Math.min(items.length - 1, at + step));
    event.preventDefault();
    event.stopImmediatePropagation();
    items[next].focus();
  }, true);

  /* Cards on the table take the keyboard's focus: one Tab stop per group of cards (a row, the
     centre, a pile), arrows move within it, Enter or Space shows the card's rule. */
  var CARD_GROUP = ".row, .table__center-cards, .pile, .queue, .crossroads-pair";
  function cardsOf(group) {
    return Array.prototype.filter.call(group.querySelectorAll(".card[data-code]"), function (card) {
      return !card.closest("button");
    });
  }
  function focusableCards() {
    var table = document.getElementById("table");
    if (!table || !document.getElementById("card-rule")) return;
    var groups = new Set();
    cardsOf(table).forEach(function (card) {
      if (!card.hasAttribute("tabindex")) {
        card.setAttribute("tabindex", "-1");
        card.setAttribute("role", "button");
        card.setAttribute("aria-haspopup", "dialog");
      }
      groups.add(card.closest(CARD_GROUP) || card.parentElement);
    });
    groups.forEach(function (group) {
      var cards = cardsOf(group);
      var stop = cards.filter(function (card) { return card === document.activeElement; })[0] || cards[0];
      cards.forEach(function (card) { card.tabIndex = card === stop ? 0 : -1; });
    });
  }
  document.addEventListener("keydown", function (event) {
    var card = event.target && event.target.matches && event.target.matches("#table .card[data-code]") && event.target;
    if (!card) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopImmediatePropagation();
      openCardRule(card);
      return;
    }
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step && event.key !== "Home" && event.key !== "End") return;
    var cards = cardsOf(card.closest(CARD_GROUP) || card.parentElement);
    var at = cards.indexOf(card);
    var next = event.key === "Home" ? 0 : event.key === "End" ? cards.length - 1
      : Math.max(0, Math.min(cards.length - 1, at + step));
    event.preventDefault();
    card.tabIndex = -1;
    cards[next].tabIndex = 0;
    cards[next].focus();
  }, true);

  /* Tap or click a card: its rule, in the page's language (the rulebook's text). */
  var ruleFor = null;
  function closeCardRule() {
    var box = document.getElementById("card-rule");
    if (box && !box.hidden) {
      box.hidden = true;
      if (ruleFor && ruleFor.isConnected) ruleFor.focus({ preventScroll: true });
      ruleFor = null;
    }
  }
  function openCardRule(card) {
    var box = document.getElementById("card-rule");
    var why = card.closest("[data-why]");  // a card of your Sevens hand: whether it fits, and why
    var rule = document.querySelector('#card-rules [data-rule="' + card.dataset.code + '"]');
    if (!box || !(rule || why)) return;
    var body = box.querySelector("[data-card-rule-body]");
    if (why) {
      var name = document.createElement("h3"), text = document.createElement("p");
      name.className = "card-rule__name";
      name.textContent = card.getAttribute("aria-label") || "";
      text.textContent = why.dataset.why;
      body.replaceChildren(name, text);
    } else {
      body.innerHTML = rule.innerHTML;
    }
    box.setAttribute("aria-label", card.getAttribute("aria-label") || "");
    box.hidden = false;
    var place = card.getBoundingClientRect();
    var width = box.offsetWidth, height = box.offsetHeight;
    var left = Math.min(Math.max(8, place.left + place.width / 2 - width / 2), window.innerWidth - width - 8);
    var top = place.top - height - 8 < 8 ? place.bottom + 8 : place.top - height - 8;
    box.style.left = left + "px";
    box.style.top = Math.min(top, window.innerHeight - height - 8) + "px";
    ruleFor = card;
    box.querySelector("[data-card-rule-close]").focus({ preventScroll: true });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) return;
    if (target.closest("[data-open-summary]")) showSummary(true);
    if (target.closest("[data-close-summary]")) closeSummary();
    if (target.closest("[data-toggle-scores]")) toggleScores();
    if (target.closest("[data-sound]")) toggleSound();
    if (target.closest("[data-card-rule-close]")) { closeCardRule(); return; }
    var card = target.closest("#table .card[data-code]");
    if (card && !card.closest("button")) { openCardRule(card); return; }
    if (!target.closest("#card-rule")) closeCardRule();
    var copy = target.closest("[data-copy]");
    if (copy) {
      var input = document.querySelector(copy.getAttribute("data-copy"));
      if (!input) return;
      var url = fullInviteUrl(input);
      input.value = url;
      var done = function () {
        var label = copy.textContent;
        copy.textContent = copy.getAttribute("data-copied");
        setTimeout(function () { copy.textContent = label; }, 1600);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(done, function () { input.select(); document.execCommand("copy"); done(); });
      } else {
        input.select(); document.execCommand("copy"); done();
      }
    }
  });

  function fullInviteUrl(input) {
    return window.location.origin + input.getAttribute("data-invite-path");
  }
  function fillInviteLinks() {
    document.querySelectorAll("[data-invite-path]").forEach(function (input) { input.value = fullInviteUrl(input); });
  }
  document.addEventListener("htmx:wsAfterMessage", fillInviteLinks);
  // The socket's first table has arrived (what a test, or a script, waits for before acting).
  document.addEventListener("htmx:wsAfterMessage", function () { document.body.setAttribute("data-socket", "live"); });

  // Connection state. A socket lost (the network, a server restarting) is the extension's to
  // reconnect: it tries again after a pause drawn at random below 1 s, 2 s, 4 s, then 8 s at most
  // (each try costs a server that is down nothing), and the note says "Reconnecting…". It does
  // so only after the closes in RETRIED (its onclose); any other close is final.
  // A full server turns a new socket away with 4503, "busy" (game.runtime.capacity), which the
  // extension would take as final: the note says busy until a table arrives, and the socket
  // tries again after a pause drawn at random below a longest that doubles with each turn-away
  // in a row (1 s, 2 s, … 64 s), so that the turned-away do not all come back at once: on a
  // full server every try is a handshake it must answer, and many people wait at once. A server
  // with room that only lets a crowd in a few at a time says so (4504, CLOSE_ARRIVING): that
  // passes in moments, so the pause stops growing at ARRIVING_PAUSE_MAX_MS. A pause
  // of COUNTDOWN_FROM_MS or more is shown as what it is, the seconds left (on screen, each
  // second; a screen reader hears the state once), with "Try now" to try at once.
  // The server closes a socket for good with a reason (game.live.consumers: too many sockets
  // from the address, too many tables looked up, too many messages, its person suspended or
  // banned (4403); the transport's 4429 for a
  // socket whose frames it kept dropping), and nothing reconnects it: the note says the page is
  // disconnected ("closed", the reason the toast gave kept under it, as the toast fades) with
  // Reload; a table that no longer exists (4404) says so ("gone"), with the way to the start page
  // (the toast that came before the close is taken away: the note says the same).
  // While the socket is lost, turned away or closed, the table's moves are off (the extension
  // would keep a move for a socket that may never open, or send it to one the server is closing,
  // and it would be lost after the bar showed it sent): the table drawn on arrival brings them back.
  var CLOSE_BUSY = 4503;
  var CLOSE_NO_TABLE = 4404;
  // the closes htmx's ws extension reconnects after (its onclose): no close frame, a server
  // error, a server restarting, try again later
  var RETRIED = [1006, 1011, 1012, 1013];
  // the toasts game.live.consumers sends just before a final close (their data-reason)
  var CLOSING_REASONS = ["too_many_sockets", "lookups", "flooding", "put_out"];
  var COUNTDOWN_FROM_MS = 5000;
  var CLOSE_ARRIVING = 4504;  // busy for moments only (game.live.admission)
  var ARRIVING_PAUSE_MAX_MS = 4000;
  var busyInARow = 0;
  var nextTry = null;  // the turned-away socket's next try: {socket, at, timer, ticker}
  htmx.config.wsReconnectDelay = function (retryCount) {
    return 1000 * Math.pow(2, Math.min(retryCount, 3)) * Math.random();
  };
  function connectionNote(state, seconds, detail) {
    var note = document.getElementById("connection");
    if (!note) return;
    note.hidden = state === null;
    note.classList.toggle("connection--busy", state === "busy" || state === "wait");
    note.classList.toggle("connection--closed", state === "closed" || state === "gone");
    var text = state === null ? "" : note.dataset[state].replace("{seconds}", String(seconds));
    var shown = note.querySelector("[data-connection-text]");
    if (shown.textContent !== text && state !== null) shown.textContent = text;
    if (note.dataset.state !== String(state)) {
      note.querySelector("[data-connection-said]").textContent = text;
      note.querySelectorAll("[data-connection-for]").forEach(function (control) {
        control.hidden = control.dataset.connectionFor !== state;
      });
      var more = note.querySelector("[data-connection-detail]");
      more.textContent = detail || "";
      more.hidden = !detail;
      note.dataset.state = String(state);
      movesOff(state !== null);
      if (state === "closed" || state === "gone") chatOff();
      placeNote(true);
    }
  }
  // A socket closed for good takes the chat with it: a line typed then would wait in the
  // extension for a socket that never opens, and be lost after it looked sent.
  function chatOff() {
    document.querySelectorAll("form[ws-send] button, form[ws-send] input:not([type=hidden])").forEach(function (control) {
      control.disabled = true;
    });
  }
  function movesOff(off) {
    var selector = off ? "#table form[ws-send] button:not([disabled])" : "#table button[data-busy-off]";
    document.querySelectorAll(selector).forEach(function (button) {
      button.disabled = off;
      button.toggleAttribute("data-busy-off", off);
    });
  }
  // Where the note shows. Above the table, in the page's flow: on a page at its top it pushes
  // the table down and covers nothing. Once the page is scrolled past that place, a note kept
  // in view there would cover the top of what is seen (the bar, the seats): it docks at the
  // bottom instead, as wide as the table, over the controls it turned off (on a phone, the
  // bottom panel). Its place above the table stays kept, so nothing moves; its height, in
  // --connection-docked, keeps the toasts above it and leaves room below the page's end.
  function undock(note, slot) {
    note.classList.remove("connection--docked");
    note.style.left = note.style.width = slot.style.height = "";
    document.documentElement.style.removeProperty("--connection-docked");
  }
  function placeNote(remeasure) {
    var note = document.getElementById("connection");
    if (!note) return;
    var slot = note.closest("[data-connection-slot]");
    var docked = note.classList.contains("connection--docked");
    if (docked && (remeasure || note.hidden)) {
      undock(note, slot);
      docked = false;
    }
    if (note.hidden) return;
    var past = slot.getBoundingClientRect().top < 0;
    if (past === docked) return;
    if (!past) { undock(note, slot); return; }
    slot.style.height = note.offsetHeight + parseFloat(window.getComputedStyle(note).marginBottom) + "px";
    var across = (table() || slot).getBoundingClientRect();
    note.style.left = across.left + "px";
    note.style.width = across.width + "px";
    note.classList.add("connection--docked");
    // its height and the gap below it
    document.documentElement.style.setProperty("--connection-docked", note.offsetHeight + 8 + "px");
  }
  window.addEventListener("scroll", function () { placeNote(false); }, { passive: true });
  window.addEventListener("resize", function () { placeNote(true); });
  function closingReason() {
    var toast = document.querySelector("#toast .toast[data-reason]");
    return toast && CLOSING_REASONS.indexOf(toast.dataset.reason) >= 0 ? toast.textContent.trim() : "";
  }
  function countDown() {
    connectionNote("wait", Math.max(1, Math.ceil((nextTry.at - Date.now()) / 1000)));
  }
  function tryNow() {
    if (!nextTry) return;
    clearTimeout(nextTry.timer);
    clearInterval(nextTry.ticker);
    var socket = nextTry.socket;
    nextTry = null;
    connectionNote("busy");
    socket.reconnect();
  }
  document.addEventListener("click", function (event) {
    if (!event.target.closest) return;
    if (event.target.closest("[data-connection-retry]")) tryNow();
    if (event.target.closest("[data-connection-reload]")) window.location.reload();
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var closed = event.detail && event.detail.event;
    var socket = event.detail && event.detail.socketWrapper;
    var code = closed ? closed.code : 1006;
    var busy = code === CLOSE_BUSY || code === CLOSE_ARRIVING;
    busyInARow = busy ? busyInARow + 1 : 0;
    if (code === CLOSE_NO_TABLE) {  // the note says it, with the way out: not twice
      var said = document.querySelector('#toast .toast[data-reason="no_table"]');
      if (said) said.remove();
      connectionNote("gone");
      return;
    }
    if (!busy && RETRIED.indexOf(code) < 0) { connectionNote("closed", 0, closingReason()); return; }
    if (!busy) { connectionNote("lost"); return; }
    if (!socket || !socket.reconnect) { connectionNote("busy"); return; }
    var longest = 1000 * Math.pow(2, Math.min(busyInARow - 1, 6));
    if (code === CLOSE_ARRIVING) longest = Math.min(longest, ARRIVING_PAUSE_MAX_MS);
    var pause = longest * Math.random();
    nextTry = { socket: socket, at: Date.now() + pause, timer: setTimeout(tryNow, pause), ticker: null };
    if (pause < COUNTDOWN_FROM_MS) { connectionNote("busy"); return; }
    countDown();
    nextTry.ticker = setInterval(countDown, 250);  // the seconds change on time, whatever the drift
  });
  document.addEventListener("htmx:wsOpen", function () {
    if (!busyInARow) connectionNote(null);  // turned away or not is known at the first message
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!busyInARow) return;
    busyInARow = 0;
    connectionNote(null);
  });

  /* ---------- chat ---------- */

  // Whom this browser muted at this table: author tokens (never keys) and the names they showed.
  function mutedKey() { var s = shell(); return "sevn:muted:" + (s ? s.dataset.code : ""); }
  function mutedPeople() {
    try { return JSON.parse(window.localStorage.getItem(mutedKey()) || "{}") || {}; } catch (e) { return {}; }
  }
  function saveMuted(people) { try { window.localStorage.setItem(mutedKey(), JSON.stringify(people)); } catch (e) { /* private mode */ } }
  function applyMutes() {
    var people = mutedPeople();
    document.querySelectorAll(".chat__line[data-author]").forEach(function (line) {
      line.hidden = Object.prototype.hasOwnProperty.call(people, line.dataset.author);
    });
    var names = Object.keys(people).map(function (token) { return people[token]; });
    var note = document.querySelector("[data-chat-muted]");
    if (note) {
      note.hidden = names.length === 0;
      note.querySelector("[data-chat-muted-names]").textContent = names.join(", ");
    }
  }

  // A count of lines that came while a chat box was folded: the whole chat's, and the
  // spectators' channel's (folded for players) on its own summary.
  function countUnread(badge, more) {
    if (!badge) return;
    badge.textContent = String(Number(badge.getAttribute("data-count") || 0) + more);
    badge.setAttribute("data-count", badge.textContent);
    if (badge.dataset.label) badge.setAttribute("title", badge.dataset.label);
    badge.hidden = false;
  }
  function clearUnread(badge) {
    if (!badge) return;
    badge.hidden = true;
    badge.textContent = "";
    badge.removeAttribute("data-count");
  }
  var chatSeen = {};
  function chatArrived() {
    ["chat-table-list", "chat-spectators-list"].forEach(function (id) {
      var list = document.getElementById(id);
      if (!list) return;
      var count = list.children.length;
      if (chatSeen[id] !== count) {
        list.scrollTop = list.scrollHeight;
        var more = chatSeen[id] !== undefined && count > chatSeen[id] ? count - chatSeen[id] : 0;
        var box = document.querySelector("[data-chat-box]");
        if (more && box && !box.open) countUnread(document.querySelector("[data-chat-unread]"), more);
        var spectators = document.querySelector("[data-chat-spectators]");
        if (more && id === "chat-spectators-list" && spectators && !spectators.open) {
          countUnread(document.querySelector("[data-spectators-unread]"), more);
        }
        chatSeen[id] = count;
      }
    });
    applyMutes();
  }

  function spectatorsKey() { var s = shell(); return "sevn:spectators:" + (s ? s.dataset.code : ""); }
  function applySpectators() {
    var box = document.querySelector("[data-chat-spectators]");
    var chosen = remembered(spectatorsKey());
    if (box && chosen) box.open = chosen === "open";
  }
  document.addEventListener("input", function (event) {  // an edited seed is not sent yet
    var form = event.target && event.target.closest && event.target.closest("form[data-fair-seed]");
    if (form) form.querySelector("[data-fair-status]").textContent = "";
  });
  document.addEventListener("toggle", function (event) {
    var target = event.target;
    if (target.matches && target.matches("[data-chat-spectators]")) {
      remember(spectatorsKey(), target.open ? "open" : "closed");
      if (target.open) clearUnread(document.querySelector("[data-spectators-unread]"));
    }
    if (target.matches && target.matches("[data-chat-box]") && target.open) clearUnread(document.querySelector("[data-chat-unread]"));
  }, true);

  // The composer is drawn again when the socket opens or someone sits down: what is being typed
  // (and the focus) moves into the new one.
  var typing = null;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "chat-compose") return;
    typing = {};
    target.querySelectorAll("input[id]:not([type=hidden])").forEach(function (field) {
      typing[field.id] = { value: field.value, focused: document.activeElement === field };
    });
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (!event.target || event.target.id !== "chat-compose") return;
    if (typing) {
      Object.keys(typing).forEach(function (id) {
        var field = document.getElementById(id);
        if (!field) return;
        field.value = typing[id].value;
        if (typing[id].focused && !field.disabled) field.focus({ preventScroll: true });
      });
    }
    typing = null;
    chatCount(false);
    chatRefusalEnds();
  });

  // A line sent stays in the field until it comes back said (this person's own line): a line
  // refused (too fast, muted) keeps what was typed, with the reason in the toast.
  var sentLine = null;
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target && event.target.closest && event.target.closest("[data-chat-form]");
    var field = form && form.querySelector("input[name=text]");
    if (field) sentLine = field.value;
  });
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (sentLine === null) return;
    var message = event && event.detail && event.detail.message;
    if (typeof message !== "string") return;
    if (message.indexOf("chat__line--mine") >= 0) {
      var field = document.getElementById("chat-text");
      if (field && field.value === sentLine) { field.value = ""; chatCount(false); }
      sentLine = null;
    } else if (message.indexOf('class="toast"') >= 0) {
      sentLine = null;
    }
  });

  // The counter under the field, and what it says at the cap (a paste cut short says so).
  function chatCount(cut) {
    var field = document.getElementById("chat-text");
    var counter = document.querySelector("[data-chat-count]");
    var limit = document.querySelector("[data-chat-limit]");
    if (!field || !counter) return;
    var max = Number(counter.dataset.max);
    var length = field.value.length;
    counter.querySelector("[data-chat-count-number]").textContent = String(length);
    counter.classList.toggle("is-full", length >= max);
    if (limit) limit.textContent = cut ? counter.dataset.cut : length >= max ? counter.dataset.full : "";
  }
  var pastedCut = false;
  document.addEventListener("paste", function (event) {
    var field = event.target;
    if (!field || field.id !== "chat-text") return;
    var pasted = (event.clipboardData || window.clipboardData).getData("text") || "";
    var kept = field.value.length - ((field.selectionEnd || 0) - (field.selectionStart || 0));
    pastedCut = kept + pasted.length > Number(field.getAttribute("maxlength"));
  });
  document.addEventListener("input", function (event) {
    if (!event.target || event.target.id !== "chat-text") return;
    chatCount(pastedCut);
    pastedCut = false;
  });

  // A mute or ban that ends on its own: the box opens again then, without a reload.
  var refusalTimer = null;
  function chatRefusalEnds() {
    if (refusalTimer) { window.clearTimeout(refusalTimer); refusalTimer = null; }
    var refused = document.querySelector("[data-chat-refused][data-until]");
    if (!refused) return;
    var wait = Number(refused.dataset.until) - Date.now();
    refusalTimer = window.setTimeout(function () {
      var compose = document.getElementById("chat-compose");
      if (!compose || !compose.contains(refused)) return;
      compose.querySelectorAll("input[disabled], button[disabled]").forEach(function (control) { control.disabled = false; });
      compose.querySelectorAll(".chat__phrases[hidden]").forEach(function (row) { row.hidden = false; });
      var field = document.getElementById("chat-text");
      if (field) field.setAttribute("aria-describedby", "chat-count");
      refused.remove();
    }, Math.max(0, Math.min(wait, 2147483000)));
  }

  function openReport(button, field, value) {
    var dialog = document.getElementById("report-dialog");
    if (!dialog || !dialog.showModal) return;
    var form = dialog.querySelector("[data-report-form]");
    var who = button.closest("[data-nickname]");
    var title = dialog.querySelector("[data-report-title]");
    var line = button.closest(".chat__line");
    form.reset();
    form.querySelector("[data-report-message-field]").value = field === "message" ? value : "";
    form.querySelector("[data-report-seat-field]").value = field === "seat" ? value : "";
    title.textContent = title.getAttribute(field === "message" ? "data-title-message" : "data-title-seat");
    dialog.querySelector("[data-report-who]").textContent = (who ? who.dataset.nickname : "") +
      (line ? ": " + line.querySelector(".chat__text").textContent : "");
    dialog.showModal();
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target && event.target.closest && event.target.closest("[data-report-form]");
    if (form && event.detail.successful) form.closest("dialog").close();
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) return;
    var mute = target.closest("[data-chat-mute]");
    if (mute) {
      var person = mute.closest("[data-author]");
      var people = mutedPeople();
      people[person.dataset.author] = person.dataset.nickname;
      saveMuted(people);
      applyMutes();
      return;
    }
    if (target.closest("[data-chat-unmute]")) { saveMuted({}); applyMutes(); return; }
    var message = target.closest("[data-report-message]");
    if (message) { openReport(message, "message", message.getAttribute("data-report-message")); return; }
    var seat = target.closest("[data-report-seat]");
    if (seat) { openReport(seat, "seat", seat.getAttribute("data-report-seat")); return; }
    if (target.closest("[data-report-cancel]")) { target.closest("dialog").close(); return; }
    var notice = target.closest("[data-close-notice]");
    if (notice) notice.closest(".notice-banner").remove();
  });
  document.addEventListener("htmx:wsAfterMessage", chatArrived);

  /* ---------- the fair-deal panel (game.screen.fair) ----------
     Each deal gets a fresh random client seed from this browser (shown, and changeable before
     the deal), sent once the deal's commitment is on the table: a seed the server knew before
     it committed could be played against, so none is ever reused for another deal. */

  function randomSeed() {
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  var seedSentFor = {};  // commitment -> the seed sent for it from this page
  function seedKey(form) { return "sevn:seed:" + form.querySelector("input[name=commitment]").value; }
  function fairSeed() {
    var panel = document.querySelector("[data-fair-panel]");
    if (panel && remembered("sevn:fair-open") === "1") panel.open = true;
    var form = document.querySelector("form[data-fair-seed]");
    if (!form || !window.crypto || !window.htmx) return;
    var input = form.querySelector("input[name=seed]");
    var seed = remembered(seedKey(form));
    if (!seed) { seed = randomSeed(); remember(seedKey(form), seed); }
    if (document.activeElement !== input) input.value = seed;
    var commitment = form.querySelector("input[name=commitment]").value;
    if (seedSentFor[commitment] !== seed) htmx.trigger(form, "submit");
    else form.querySelector("[data-fair-status]").textContent = form.dataset.sent;
  }
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.target && event.target.closest && event.target.closest("form[data-fair-seed]");
    if (!form) return;
    var seed = event.detail.parameters.seed;
    remember(seedKey(form), seed);  // a seed typed in counts for this deal, like the random one
    seedSentFor[form.querySelector("input[name=commitment]").value] = seed;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target && event.target.closest && event.target.closest("form[data-fair-seed]");
    if (!form) return;
    var status = form.querySelector("[data-fair-status]");
    // 204: counted; a refusal comes back as a toast (a new commitment brings the form again)
    if (event.detail.xhr && event.detail.xhr.status === 204) status.textContent = form.dataset.sent;
    else { status.textContent = ""; seedSentFor = {}; }
  });
  document.addEventListener("toggle", function (event) {
    if (event.target.matches && event.target.matches("[data-fair-panel]")) remember("sevn:fair-open", event.target.open ? "1" : "0");
  }, true);
  document.addEventListener("htmx:wsAfterMessage", fairSeed);
  document.addEventListener("htmx:afterSwap", fairSeed);
  document.addEventListener("DOMContentLoaded", fairSeed);

  /* ---------- a finished game's replay (/g/<id>/, game.screen.replay_steps) ----------
     Arrow keys, the slider and the step links fetch one step (its table, hands and log) and swap
     each part in by its id; the address follows (?step=N), so any step can be linked to. */

  function replayRoot() { return document.querySelector("[data-replay]"); }
  var replayAsked = null;
  function replayGo(step) {
    var root = replayRoot();
    if (!root) return;
    var last = parseInt(root.dataset.steps, 10);
    step = Math.max(0, Math.min(last, step));
    if (step === replayAsked || String(step) === root.dataset.step && replayAsked === null) return;
    replayAsked = step;
    var url = root.dataset.url + "?step=" + step;
    fetch(url, { headers: { "X-Replay-Step": "1" }, credentials: "same-origin" })
      .then(function (response) { if (!response.ok) throw new Error(response.status); return response.text(); })
      .then(function (html) {
        if (replayAsked !== step) return;  // a later step was asked for meanwhile
        var parts = document.createElement("template");
        parts.innerHTML = html;
        parts.content.querySelectorAll("[id]").forEach(function (part) {
          var shown = document.getElementById(part.id);
          if (shown && part.parentNode === parts.content) shown.replaceWith(part);
        });
        root.dataset.step = String(step);
        replayAsked = null;
        var slider = document.getElementById("replay-slider");
        if (slider && document.activeElement !== slider) slider.value = String(step);
        var links = { first: 0, previous: Math.max(step - 1, 0), next: Math.min(step + 1, last), last: last };
        root.querySelectorAll("[data-replay-to]").forEach(function (link) { link.setAttribute("href", "?step=" + links[link.dataset.replayTo]); });
        window.history.replaceState(null, "", url);
        var log = document.querySelector("#replay-log .log__list");
        if (log) log.scrollTop = log.scrollHeight;
        afterRedraw();
      })
      .catch(function () { replayAsked = null; window.location.href = url; });
  }
  document.addEventListener("keydown", function (event) {
    var root = replayRoot();
    if (!root || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && target.id !== "replay-slider" && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (target && target.id === "replay-slider") return;  // the slider moves itself (its input event)
    var step = parseInt(replayAsked !== null ? replayAsked : root.dataset.step, 10);
    var moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: parseInt(root.dataset.steps, 10) };
    if (!(event.key in moves)) return;
    event.preventDefault();
    replayGo(moves[event.key]);
  });
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "replay-slider") replayGo(parseInt(event.target.value, 10));
  });
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-replay-to]");
    if (!link || !replayRoot()) return;
    event.preventDefault();
    replayGo(parseInt(link.getAttribute("href").split("=")[1], 10));
  });
  document.addEventListener("DOMContentLoaded", function () {
    var log = document.querySelector("#replay-log .log__list");
    if (log) log.scrollTop = log.scrollHeight;
  });

  /* ---------- rulebook: step 2, Draw or Pass ---------- */

  function setupChoice(root) {
    var row = root.querySelector("[data-choice-row]");
    var next = root.querySelector("[data-choice-card]");
    var safe = root.querySelector("[data-choice-safe]");
    var result = root.querySelector("[data-choice-result]");
    root.querySelectorAll("[data-choice]").forEach(function (button) {
      button.addEventListener("click", function () {
        var draw = button.getAttribute("data-choice") === "draw";
        row.classList.toggle("is-passed", !draw);
        next.hidden = !draw;
        safe.hidden = draw;
        if (draw) {
          var card = next.querySelector(".card");
          card.classList.remove("is-new"); void card.offsetWidth; card.classList.add("is-new");
        }
        result.textContent = result.getAttribute(draw ? "data-after-draw" : "data-after-pass");
      });
    });
  }

  /* ---------- rulebook: the round that plays itself ---------- */

  function setupDemo(root) {
    var frames = Array.prototype.slice.call(root.querySelectorAll("[data-frame]"));
    var controls = root.querySelector("[data-demo-controls]");
    var toggle = root.querySelector("[data-demo-toggle]");
    if (!frames.length) return;
    controls.hidden = false;
    var index = 0;
    var playing = !reduceMotion;
    var timer = null;
    function show(i) {
      index = (i + frames.length) % frames.length;
      frames.forEach(function (frame, n) { frame.hidden = n !== index; });
    }
    function schedule() {
      clearTimeout(timer);
      if (playing) timer = setTimeout(function () { show(index + 1); schedule(); }, 3600);
    }
    function setPlaying(on) {
      playing = on;
      toggle.textContent = toggle.getAttribute(on ? "data-label-pause" : "data-label-play");
      toggle.setAttribute("aria-pressed", on ? "false" : "true");
      schedule();
    }
    root.querySelector("[data-demo-prev]").addEventListener("click", function () { setPlaying(false); show(index - 1); });
    root.querySelector("[data-demo-next]").addEventListener("click", function () { setPlaying(false); show(index + 1); });
    toggle.addEventListener("click", function () { setPlaying(!playing); });
    root.addEventListener("keydown", function (event) {
      if (event.key === "ArrowRight") { setPlaying(false); show(index + 1); }
      if (event.key === "ArrowLeft") { setPlaying(false); show(index - 1); }
    });
    setPlaying(playing);
  }

  /* ---------- rulebook: the scoring order, step by step ---------- */

  function setupScoring(root) {
    var steps = Array.prototype.slice.call(root.querySelectorAll("[data-step]"));
    var total = root.querySelector("[data-scoring-total]");
    var controls = root.querySelector("[data-scoring-controls]");
    var next = root.querySelector("[data-scoring-next]");
    if (!steps.length) return;
    controls.hidden = false;
    var index = 0;
    var timer = null;
    function show(i) {
      index = Math.min(i, steps.length - 1);
      steps.forEach(function (step, n) {
        step.classList.toggle("is-current", n === index);
        step.classList.toggle("is-pending", n > index);
      });
      total.textContent = steps[index].getAttribute("data-total");
      next.disabled = index === steps.length - 1;
    }
    function autoplay() {
      clearTimeout(timer);
      if (index < steps.length - 1) timer = setTimeout(function () { show(index + 1); autoplay(); }, 1500);
    }
    next.addEventListener("click", function () { clearTimeout(timer); show(index + 1); });
    root.querySelector("[data-scoring-restart]").addEventListener("click", function () { show(0); autoplay(); });
    show(0);
    if (!reduceMotion && "IntersectionObserver" in window) {
      var seen = new IntersectionObserver(function (entries) {
        if (entries.some(function (e) { return e.isIntersecting; })) { seen.disconnect(); autoplay(); }
      }, { threshold: 0.4 });
      seen.observe(root);
    }
  }

  /* ---------- creating a table: the chosen game's own settings ---------- */

  // Without JavaScript every field shows and the server takes the chosen game's; with it, the
  // other game's fields hide and the seat choices are the chosen game's (Sevens: 3 to 7).
  var SEATS = { sevn: [2, 8], sevens: [3, 7] };
  function setupGameChoice(form) {
    var seats = form.querySelector('select[name="seat_count"]');
    function show() {
      var chosen = form.querySelector('input[name="kind"]:checked');
      var game = chosen ? chosen.value : "sevn";
      form.querySelectorAll("[data-for-game]").forEach(function (field) {
        field.hidden = field.getAttribute("data-for-game") !== game;
      });
      if (!seats) return;
      var range = SEATS[game] || SEATS.sevn;
      Array.prototype.forEach.call(seats.options, function (option) {
        var n = parseInt(option.value, 10);
        option.disabled = option.hidden = n < range[0] || n > range[1];
      });
      var now = parseInt(seats.value, 10);
      if (now < range[0] || now > range[1]) seats.value = String(Math.min(Math.max(now, range[0]), range[1]));
    }
    form.addEventListener("change", function (event) {
      if (event.target.name === "kind") show();
    });
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-create-table]").forEach(setupGameChoice);
    document.querySelectorAll("[data-choice-demo]").forEach(setupChoice);
    document.querySelectorAll("[data-demo]").forEach(setupDemo);
    document.querySelectorAll("[data-scoring]").forEach(setupScoring);
    fillInviteLinks();
    afterRedraw();
    applySpectators();
    chatArrived();
    chatCount(false);
    chatRefusalEnds();
  });
})();

/* ---------- Rulebook: the Sevens page's "what fits this layout" ----------
   Every verdict is in the page, written by the server from the Sevens engine; this only shows
   the one for the card you choose (click, tap, or arrows and Space/Enter: one Tab stop). */
(function () {
  "use strict";

  function setupFits(root) {
    var hand = root.querySelector("[data-fits-hand]");
    var result = root.querySelector("[data-fits-result]");
    var list = root.querySelector("[data-fits-verdicts]");
    if (!hand || !result || !list) return;
    var picks = Array.prototype.slice.call(hand.querySelectorAll("[data-pick]"));
    if (!picks.length) return;

    function choose(index, focus) {
      var code = picks[index].getAttribute("data-pick");
      var verdict = list.querySelector('[data-verdict="' + code + '"]');
      var fits = verdict.getAttribute("data-fits") === "true";
      picks.forEach(function (pick, n) {
        var on = n === index;
        pick.classList.toggle("is-chosen", on);
        pick.classList.toggle("is-fits", on && fits);
        pick.classList.toggle("is-blocked", on && !fits);
        pick.setAttribute("aria-checked", String(on));
        pick.tabIndex = on ? 0 : -1;
      });
      result.className = "fits__result verdict verdict--" + (fits ? "fits" : "blocked");
      result.textContent = "";
      result.appendChild(verdict.querySelector(".verdict__mark").cloneNode(true));
      result.appendChild(document.createTextNode(" " + verdict.querySelector(".verdict__text").textContent));
      if (focus) picks[index].focus();
    }

    hand.setAttribute("role", "radiogroup");
    picks.forEach(function (pick, index) {
      pick.setAttribute("role", "radio");
      pick.setAttribute("aria-checked", "false");
      pick.tabIndex = index === 0 ? 0 : -1;
      pick.addEventListener("click", function (event) { event.preventDefault(); choose(index, false); });
    });
    hand.addEventListener("keydown", function (event) {
      var index = picks.indexOf(document.activeElement);
      if (index < 0) return;
      var steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      if (event.key in steps) index = (index + steps[event.key] + picks.length) % picks.length;
      else if (event.key === "Home") index = 0;
      else if (event.key === "End") index = picks.length - 1;
      else if (event.key !== " " && event.key !== "Enter") return;
      event.preventDefault();
      choose(index, true);
    });
    list.hidden = true;
    result.textContent = result.getAttribute("data-prompt");
    result.hidden = false;
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-fits-example]").forEach(setupFits);
  });
})();

/* A signed-in person's pages each keep a small socket (game.live.people): an invitation that
   arrives shows as a toast with a Join button, on whatever page is open. */
(function () {
  "use strict";
  var region = document.getElementById("invitations");
  if (!region || !window.WebSocket) return;
  var delay = 1000;
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + region.getAttribute("data-person-socket"));
    socket.onopen = function () { delay = 1000; region.setAttribute("data-live", ""); };
    socket.onmessage = function (event) {
      var holder = document.createElement("div");
      holder.innerHTML = event.data;  // drawn by the server's templates, escaped there
      var toast = holder.firstElementChild;
      if (!toast) return;
      toast.querySelectorAll("[data-csrf]").forEach(function (input) { input.value = csrfToken(); });
      var same = region.querySelector('[data-invitation="' + toast.getAttribute("data-invitation") + '"]');
      if (same) same.remove();
      region.appendChild(toast);
    };
    socket.onclose = function (event) {
      region.removeAttribute("data-live");
      if (event.code === 4401) return;  // signed out meanwhile
      if (event.code === 4430) delay = 30000;  // too many of this person's pages open: their others show the toasts
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  region.addEventListener("click", function (event) {
    var later = event.target.closest("[data-close-invitation]");
    if (later) later.closest(".invite-toast").remove();
  });
  connect();
})();
