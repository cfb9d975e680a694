"""The game's pages, one module per page family (game.pages); sevn_site.urls puts them under each
language's prefix, and the language-neutral invite link outside them."""

from __future__ import annotations

from django.urls import path

from game.pages import accounts, alerts, chat, fair, friends, home, ratings, records, replay, reports, table

urlpatterns = [
    path("", home.home, name="home"),
    path("tables/new/", home.table_create, name="table_create"),
    path("tables/find/", home.table_find, name="table_find"),
    path("tables/open/", home.tables_open, name="tables_open"),
    path("t/<str:code>/", table.table, name="table"),
    path("t/<str:code>/join/", table.table_join, name="table_join"),
    path("t/<str:code>/leave/", table.table_leave, name="table_leave"),
    path("t/<str:code>/remove/", table.table_remove, name="table_remove"),
    path("t/<str:code>/bot/", table.table_bot, name="table_bot"),
    path("t/<str:code>/start/", table.table_start, name="table_start"),
    path("t/<str:code>/rematch/", table.table_rematch, name="table_rematch"),
    path("t/<str:code>/back/", table.table_reclaim, name="table_reclaim"),
    path("t/<str:code>/let-go/", table.table_let_go, name="table_let_go"),
    path("t/<str:code>/chat/", chat.table_chat, name="table_chat"),
    path("t/<str:code>/chat/name/", chat.table_chat_name, name="table_chat_name"),
    path("t/<str:code>/chat/spectators/", chat.table_spectator_chat, name="table_spectator_chat"),
    path("t/<str:code>/report/", reports.table_report, name="table_report"),
    path("t/<str:code>/seed/", fair.table_seed, name="table_seed"),
    path("g/<str:public_id>/", replay.game_replay, name="game_replay"),
    path("g/<str:public_id>/analysis/", replay.game_analysis, name="game_analysis"),
    path("g/<str:public_id>/record.json", records.game_record_download, name="game_record"),
    path("verify/", records.verify_page, name="verify"),
    path("u/<str:name>/", accounts.profile, name="profile"),
    path("settings/", accounts.account_settings, name="account_settings"),
    path("settings/profile/", accounts.profile_settings, name="account_profile_settings"),
    path("settings/away/", accounts.away_settings, name="account_away_settings"),
    path("settings/notifications/", alerts.notification_settings, name="account_notification_settings"),
    path("alerts/push/", alerts.push_subscription, name="alerts_push"),
    path("alerts/unsubscribe/<str:token>/", alerts.digest_unsubscribe, name="alerts_unsubscribe"),
    path("friends/", friends.friends_page, name="friends"),
    path("friends/<str:action>/", friends.friend_action, name="friend_action"),
    path("invitations/", friends.inbox, name="invitations"),
    path("invitations/<int:invitation_id>/join/", friends.invitation_join, name="invitation_join"),
    path("invitations/<int:invitation_id>/decline/", friends.invitation_decline, name="invitation_decline"),
    path("t/<str:code>/invite/", friends.table_invite, name="table_invite_friend"),
    path("t/<str:code>/again/", friends.table_again, name="table_again"),
    path("ratings/", ratings.leaderboards, name="leaderboards"),
    path("ratings/<str:game>/", ratings.leaderboard, name="leaderboard"),
]
