/* SEVN: small enhancements on server-rendered pages. Everything works without them; with them
   you get keyboard play, the turn countdown, the round summary, chat's conveniences, invitation
   toasts, the connection note, the replay's steps and the rulebook's demos. Each concern is a
   native ES module of its own under js/ (no build step; each says at its top why it exists);
   this file only loads them.

   Every module is named here, in the order they run (a module's own imports run first, once),
   so that the browser asks for all of them as soon as it has read this file. Where two listen
   to the same event the earlier one hears it first: keyboard.js's key hints before any key is
   stopped, the Sevens hand's keys (keyboard.js) before the table cards'. */

import "./js/keyboard.js";
import "./js/csrf.js";
import "./js/page.js";
import "./js/table_cards.js";
import "./js/turn.js";
import "./js/clock_words.js";
import "./js/table_panels.js";
import "./js/focus.js";
import "./js/lobby.js";
import "./js/table_socket.js";
import "./js/connection.js";
import "./js/chat.js";
import "./js/fair_seed.js";
import "./js/replay.js";
import "./js/rulebook_demos.js";
import "./js/game_choice.js";
import "./js/pace_choice.js";
import "./js/invitations.js";
import "./js/your_move.js";
import "./js/site_menu.js";
import "./js/alerts.js";
