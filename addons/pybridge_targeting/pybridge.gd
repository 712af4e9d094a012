@tool
class_name PyBridge
extends RefCounted
## The addon's namespace: every object a game is handed, under one global name. Godot offers
## only global classes by name in its dialogs, so the nodes a game places and the Resources
## the Inspector creates are global classes of their own ([PyBridgeBattleView],
## [PyBridgeClient], [PyBridgeCardResource]...); what the views and the client hand out is
## reached through this class's constants. Game code writes them as types, as it would a
## global class:
## [codeblock]
## var state: PyBridge.BattleState = view.battle_state
## signal struck(event: PyBridge.Event)
## var hurt: Array[PyBridge.Unit] = []
## if thing is PyBridge.Unit:
##     print(PyBridge.Sentences.said_error(view.bridge.last_error))
## [/codeblock]
## The typed objects' properties mirror the runtime's [code]schema[/code] shapes
## (docs/protocol.md): ints arrive as ints, and what each value means is the runtime's.
## This class holds constants only; it is never instanced.

## A battle state, or a viewer's view of it: the turn, units, sides, the Cut, the counters.
const BattleState := preload("res://addons/pybridge_targeting/typed/pybridge_battle_state.gd")
## A card-playing side: its energy, draws and piles.
const Side := preload("res://addons/pybridge_targeting/typed/pybridge_side.gd")
## A unit of a state, or how an event leaves a unit ([member PyBridge.Event.unit_after]).
const Unit := preload("res://addons/pybridge_targeting/typed/pybridge_unit.gd")
## A card instance in a pile or on the Cut (a card back when the viewer may not see it).
const Card := preload("res://addons/pybridge_targeting/typed/pybridge_card.gd")
## An effect waiting on the Cut, with the targets it locked.
const CutEntry := preload("res://addons/pybridge_targeting/typed/pybridge_cut_entry.gd")
## The runtime's [code]targets[/code] answer for a card.
const Targets := preload("res://addons/pybridge_targeting/typed/pybridge_targets.gd")
## One event the runtime reported, its params typed by the schema's [code]field_types[/code].
const Event := preload("res://addons/pybridge_targeting/typed/pybridge_event.gd")
## Where a card that chooses as it resolves takes its choice from.
const LateChoice := preload("res://addons/pybridge_targeting/typed/pybridge_late_choice.gd")
## A choice an action asks while it resolves (a Scry's cards to keep on top).
const AskedChoice := preload("res://addons/pybridge_targeting/typed/pybridge_asked_choice.gd")
## A step of a playback: a log line and the events it tells.
const Step := preload("res://addons/pybridge_targeting/typed/pybridge_step.gd")
## A choice made one unit or card at a time (the runtime's [code]pick[/code] answer).
const Choice := preload("res://addons/pybridge_targeting/pybridge_choice.gd")
## Says the runtime's sentences in the current locale (static functions).
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")
## The client's WebSocket link to a [code]pybridge serve --ws[/code] match
## ([member PyBridgeClient.online]).
const WebSocketLink := preload("res://addons/pybridge_targeting/pybridge_web_socket_link.gd")
## The theme lookups of the built-in views, with the addon's default theme behind every item
## (static functions; a game's own card scene reads the same items through it).
const ViewTheme := preload("res://addons/pybridge_targeting/pybridge_view_theme.gd")
## A line of the runtime's battle log, with its sentence.
const LogLine := preload("res://addons/pybridge_targeting/typed/pybridge_log_line.gd")
## What the runtime answered a request that changed the battle: events, log lines, state.
const Outcome := preload("res://addons/pybridge_targeting/typed/pybridge_outcome.gd")
## The runtime's [code]cut[/code] answer: the entries and what the player may do now.
const CutStatus := preload("res://addons/pybridge_targeting/typed/pybridge_cut_status.gd")
## Why a request was refused: its code, the developer's message, a player's reason.
const Refusal := preload("res://addons/pybridge_targeting/typed/pybridge_refusal.gd")
