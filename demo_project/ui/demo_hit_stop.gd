class_name DemoHitStop
extends Node
## The party battle's playback hook ([member PyBridgeBattleView.step_handler]): each
## hit of a step (a play's, an enemy's move) freezes the unit it hit for a moment (the
## hit-stop), then shakes the screen with a short thud. The battle view awaits it, so the
## next step shows once the hit has landed. Prints [code]hit[/code] as the shake starts
## (after the freeze) and [code]hit_over[/code] when it ended, for the tests.
##
## The thud is made here, samples computed once; where the page has no audio output it
## plays to nobody.

## Emitted when the shake running now ends (at its end, or stopped early).
signal shake_ended

## The kind of event that is a hit, as the runtime's [code]schema[/code] names it (its
## [code]events[/code] table); which units it hits and by how much is the event's own data.
const HIT_EVENT := "damage"
## How long the hit unit stays frozen before the shake.
const FREEZE_SECONDS := 0.07
## How long the shake lasts, and how far it moves the screen at its start (pixels).
const SHAKE_SECONDS := 0.26
const SHAKE_PIXELS := 9.0
## The thud's sample rate and length.
const MIX_RATE := 22050
const THUD_SECONDS := 0.14

var _battle: PyBridgeBattleView = null
var _player: AudioStreamPlayer = null
var _tween: Tween = null


func _init(battle: PyBridgeBattleView) -> void:
	_battle = battle
	name = "HitStop"


func _ready() -> void:
	_player = AudioStreamPlayer.new()
	_player.stream = thud()
	_player.volume_db = -6.0
	# Mixed like any stream: where the page has no audio output the mixer plays to nobody,
	# where a web sample player would refuse with a warning.
	_player.playback_type = AudioServer.PLAYBACK_TYPE_STREAM
	add_child(_player)


## The handler: plays each hit of [param step] in turn (a coroutine the view awaits).
func play_step(step: PyBridge.Step) -> void:
	for event: PyBridge.Event in step.events_of_type(HIT_EVENT):
		if is_inside_tree():
			await hit(event.get_text("unit"), step)


## One hit on [param unit_id]: freeze, thud, shake (a coroutine).
func hit(unit_id: String, step: PyBridge.Step) -> void:
	stop()
	_player.play()
	var view: Node = _battle.unit_views.get(unit_id)
	if view != null:
		view.process_mode = Node.PROCESS_MODE_DISABLED  # its numbers and flash stand still
	await get_tree().create_timer(FREEZE_SECONDS).timeout
	if is_instance_valid(view):
		view.process_mode = Node.PROCESS_MODE_INHERIT
	if not is_inside_tree():
		return  # the scene was left meanwhile
	_tween = create_tween()
	_tween.tween_method(_shake, 1.0, 0.0, SHAKE_SECONDS)
	_tween.tween_callback(stop)
	DemoLines.say("hit", {"unit": unit_id, "op": step.op, "step": step.index})
	await shake_ended
	DemoLines.say("hit_over", {"unit": unit_id})


## Ends the shake running now, if any, and puts the screen back in place.
func stop() -> void:
	if _tween == null:
		return
	_tween.kill()
	_tween = null
	if is_inside_tree():
		get_viewport().canvas_transform = Transform2D.IDENTITY
	shake_ended.emit()


## The thud: a falling tone under a burst of noise, dying away (16-bit mono samples).
static func thud() -> AudioStreamWAV:
	var count := int(MIX_RATE * THUD_SECONDS)
	var data := PackedByteArray()
	data.resize(count * 2)
	var noise := RandomNumberGenerator.new()
	noise.seed = 24  # the same thud every time
	var phase := 0.0
	for i in count:
		var t := float(i) / MIX_RATE
		phase += TAU * lerpf(160.0, 50.0, t / THUD_SECONDS) / MIX_RATE
		var tone := sin(phase) * exp(-t * 30.0)
		var crack := noise.randf_range(-1.0, 1.0) * 0.4 * exp(-t * 120.0)
		data.encode_s16(i * 2, int(clampf(tone + crack, -1.0, 1.0) * 24000.0))
	var wav := AudioStreamWAV.new()
	wav.format = AudioStreamWAV.FORMAT_16_BITS
	wav.mix_rate = MIX_RATE
	wav.stereo = false
	wav.data = data
	return wav


func _exit_tree() -> void:
	stop()


func _shake(strength: float) -> void:
	# The whole screen moves: the views keep their places, so the layout points stand.
	var turn := (1.0 - strength) * SHAKE_SECONDS * 45.0
	var offset := Vector2(sin(turn * 2.3), cos(turn * 3.1)) * SHAKE_PIXELS * strength
	get_viewport().canvas_transform = Transform2D(0.0, offset)
