@tool
extends RefCounted
## The battle view's typed signals beside their Dictionary twins, which are deprecated: this
## part hears each twin and tells the typed form with its own signal of the same name as the
## view's, which the view emits as its own (battle/pybridge_relay.gd). A typed form is built
## by the one reader ([code]transport/pybridge_shapes.gd[/code]), and only when a game listens
## to it. A refusal is told by the part that met it, in both forms at once
## ([method refuse_card], [method refuse_request]).

## See [signal PyBridgeBattleView.battle_started].
signal battle_started(state: PyBridge.BattleState)
## See [signal PyBridgeBattleView.turn_finished].
signal turn_finished(state: PyBridge.BattleState)
## See [signal PyBridgeBattleView.card_play_answered].
signal card_play_answered(card_id: String, target_id: String, outcome: PyBridge.Outcome)
## See [signal PyBridgeBattleView.card_activation_answered].
signal card_activation_answered(
	card_id: String, target_ids: PackedStringArray, outcome: PyBridge.Outcome
)
## See [signal PyBridgeBattleView.turn_end_answered].
signal turn_end_answered(outcome: PyBridge.Outcome)
## See [signal PyBridgeBattleView.pass_answered].
signal pass_answered(outcome: PyBridge.Outcome)
## See [signal PyBridgeBattleView.cut_status_changed].
signal cut_status_changed(status: PyBridge.CutStatus)

var _view: Object = null


## Hears [param view]'s Dictionary signals.
func _init(view: Object) -> void:
	_view = view
	view.battle_opened.connect(func(_s: Dictionary) -> void: battle_started.emit(_state()))
	view.turn_settled.connect(func(_s: Dictionary) -> void: turn_finished.emit(_state()))
	view.card_played.connect(_on_card_played)
	view.card_activated.connect(_on_card_activated)
	view.turn_ended.connect(_on_answered.bind(&"turn_end_answered"))
	view.passed.connect(_on_answered.bind(&"pass_answered"))
	view.cut_changed.connect(_on_cut_changed)


## The answer [param result] of a change, typed by [param view]'s schema.
static func outcome(view: Object, result: Dictionary) -> PyBridge.Outcome:
	return PyBridge.Outcome.from(result, PyBridge.Event.types_by_event(view.get("schema")))


## [param emitter] (the view or a part of it) tells that [param card_id] was refused:
## [code]play_refused[/code] with [param refusal] (one made of [param words] when null) and the
## deprecated [code]card_refused[/code] with [param words].
static func refuse_card(
	emitter: Object, card_id: String, refusal: PyBridge.Refusal, words: String
) -> void:
	emitter.emit_signal(&"card_refused", card_id, words)
	emitter.emit_signal(&"play_refused", card_id, _or_words(refusal, words))


## [param emitter] tells that the request [param op] was refused: [code]request_denied[/code]
## with [param refusal] and the deprecated [code]request_refused[/code] with [param words].
static func refuse_request(
	emitter: Object, op: String, refusal: PyBridge.Refusal, words: String
) -> void:
	emitter.emit_signal(&"request_refused", op, words)
	emitter.emit_signal(&"request_denied", op, _or_words(refusal, words))


## [method refuse_card] for the runtime's [param error] answer: said as
## [method PyBridge.Refusal.said] says it ([param fallback] when it says nothing).
static func card_error(
	emitter: Object, card_id: String, error: Dictionary, fallback: String = ""
) -> void:
	var refusal := PyBridge.Refusal.from(error)
	refuse_card(emitter, card_id, refusal, refusal.said(fallback) if refusal else fallback)


## [method refuse_request] for the runtime's [param error] answer to [param op].
static func request_error(emitter: Object, op: String, error: Dictionary) -> void:
	var refusal := PyBridge.Refusal.from(error)
	refuse_request(emitter, op, refusal, refusal.said() if refusal else "")


static func _or_words(refusal: PyBridge.Refusal, words: String) -> PyBridge.Refusal:
	if refusal != null:
		return refusal
	return PyBridge.Refusal.from({"code": "", "message": words, "where": ""})


func _state() -> PyBridge.BattleState:
	return _view.get("battle_state")


func _on_card_played(card_id: String, target_id: String, result: Dictionary) -> void:
	if _heard(&"card_play_answered"):
		card_play_answered.emit(card_id, target_id, outcome(_view, result))


func _on_card_activated(card_id: String, target_ids: PackedStringArray, result: Dictionary) -> void:
	if _heard(&"card_activation_answered"):
		card_activation_answered.emit(card_id, target_ids, outcome(_view, result))


func _on_answered(result: Dictionary, typed: StringName) -> void:
	if _heard(typed):
		emit_signal(typed, outcome(_view, result))


func _on_cut_changed(cut: Dictionary) -> void:
	if _heard(&"cut_status_changed"):
		cut_status_changed.emit(PyBridge.CutStatus.from(cut))


## Whether a game listens to the view's typed signal [param typed].
func _heard(typed: StringName) -> bool:
	return not _view.get_signal_connection_list(typed).is_empty()
