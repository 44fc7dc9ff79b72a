from django.urls import path

from tournaments import api, reports

T = "tournaments/<id:tournament_id>/"

urlpatterns = [
    path("tournaments/", api.TournamentListView.as_view(), name="tournaments"),
    path(T, api.TournamentDetailView.as_view(), name="tournament"),
    path(T + "clock/", api.TournamentClockView.as_view(), name="tournament-clock"),
    path(T + "entries/", api.EntryListView.as_view(), name="tournament-entries"),
    path(T + "registrations/", api.RegisterView.as_view(), name="tournament-register"),
    path(T + "unregistrations/", api.UnregisterView.as_view(), name="tournament-unregister"),
    path(T + "re-entries/", api.ReEntryView.as_view(), name="tournament-re-entry"),
    path(T + "rebuys/", api.RebuyView.as_view(), name="tournament-rebuy"),
    path(T + "add-ons/", api.AddOnView.as_view(), name="tournament-add-on"),
    path(T + "start/", api.StartView.as_view(), name="tournament-start"),
    path(T + "clock/pause/", api.PauseView.as_view(), name="tournament-pause"),
    path(T + "clock/resume/", api.ResumeView.as_view(), name="tournament-resume"),
    path(T + "breaks/", api.StartBreakView.as_view(), name="tournament-break"),
    path(T + "breaks/end/", api.EndBreakView.as_view(), name="tournament-break-end"),
    path(T + "hand-for-hand/", api.HandForHandView.as_view(), name="tournament-hfh"),
    path(T + "late-registration/close/", api.CloseLateView.as_view(), name="tournament-late"),
    path(T + "deal/", api.DealView.as_view(), name="tournament-deal"),
    path(T + "deal/requests/", api.RequestDealView.as_view(), name="tournament-deal-request"),
    path(T + "deal/proposals/", api.ProposeDealView.as_view(), name="tournament-deal-propose"),
    path(T + "deal/confirmations/", api.ConfirmDealView.as_view(), name="tournament-deal-ok"),
    path(T + "deal/cancel/", api.CancelDealView.as_view(), name="tournament-deal-cancel"),
    path(T + "payments/", api.WinningsView.as_view(), name="tournament-pay"),
    path(T + "holds/", api.HoldWinningsView.as_view(), name="tournament-hold"),
    path(T + "holds/release/", api.ReleaseWinningsView.as_view(), name="tournament-release"),
    path(T + "bracket/", api.BracketView.as_view(), name="tournament-bracket"),
    path(T + "penalties/", api.PenaltiesView.as_view(), name="tournament-penalties"),
    path(T + "penalties/issue/", api.IssuePenaltyView.as_view(), name="tournament-penalty"),
    path(T + "penalties/flags/", api.FlagConductView.as_view(), name="tournament-flag"),
    path(T + "seat-corrections/", api.SeatCorrectionView.as_view(), name="tournament-seat-fix"),
    path(T + "schedule/", api.ScheduleView.as_view(), name="tournament-schedule"),
    path(T + "crash-rollback/", api.RollBackView.as_view(), name="tournament-rollback"),
    path(T + "cancel/", api.CancelView.as_view(), name="tournament-cancel"),
    path(T + "settlement/", api.CancellationView.as_view(), name="tournament-settlement"),
    path("players/<id:player_id>/t-money/", api.TMoneyView.as_view(), name="player-t-money"),
    path("cage/prize-payments/", api.PrizePaymentsView.as_view(), name="cage-prize-payments"),
    path("reports/tournaments/", reports.TournamentReport.as_view(), name="report-tournaments"),
]
