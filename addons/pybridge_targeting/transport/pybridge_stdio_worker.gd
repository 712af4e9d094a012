@tool
extends RefCounted
## Talks to a [code]pybridge serve --stdio[/code] process (or any line pipe) on a thread of
## its own, so that waiting for an answer never holds up a frame.
##
## [method push] queues a request line and returns at once; the worker thread writes it,
## waits for the answer line and hands it to [member on_answer] on the main thread
## ([method Object.call_deferred]). Requests are answered one after another, in order.
## [br][br]
## The pipe is any object with [code]store_line(text)[/code], [code]flush()[/code] and
## [code]get_line() -> String[/code] (the [FileAccess] that [method OS.execute_with_pipe]
## returns, or a test double). Without threads (a single-threaded web export)
## [method start] fails; [method serve_next] then runs one exchange on the calling thread.

## Called on the main thread with [code](ticket: int, answer: String)[/code].
var on_answer: Callable

var _pipe: Object = null
var _jobs: Array[Array] = []
var _lock: Mutex = Mutex.new()
var _wake: Semaphore = Semaphore.new()
var _thread: Thread = null
var _stopping: bool = false


func _init(pipe: Object, answer_to: Callable) -> void:
	_pipe = pipe
	on_answer = answer_to


## Starts the worker thread; false where this build has no threads.
func start() -> bool:
	if _thread != null:
		return true
	if not OS.has_feature("threads"):
		return false
	_thread = Thread.new()
	if _thread.start(_run) != OK:
		_thread = null
		return false
	return true


## Whether the worker thread runs.
func is_running() -> bool:
	return _thread != null


## Queues [param line] (one request) to be answered as [param ticket].
func push(ticket: int, line: String) -> void:
	_lock.lock()
	_jobs.append([ticket, line])
	_lock.unlock()
	_wake.post()


## How many requests wait to be written.
func waiting() -> int:
	_lock.lock()
	var count := _jobs.size()
	_lock.unlock()
	return count


## Stops the thread after the request it is on; the requests still queued are answered
## with [code]""[/code] (no runtime answered).
func stop() -> void:
	_lock.lock()
	_stopping = true
	var dropped := _jobs.duplicate()
	_jobs.clear()
	_lock.unlock()
	_wake.post()
	if _thread != null:
		_thread.wait_to_finish()
		_thread = null
	for job in dropped:
		on_answer.call_deferred(job[0], "")


## Takes the next request (waiting for one), exchanges it on the pipe and hands the answer to
## the main thread. False once [method stop] was called. The worker thread loops on it.
func serve_next() -> bool:
	_wake.wait()
	_lock.lock()
	if _stopping or _jobs.is_empty():
		_lock.unlock()
		return not _stopping
	var job: Array = _jobs.pop_front()
	_lock.unlock()
	_pipe.call(&"store_line", job[1])
	_pipe.call(&"flush")
	var answer := str(_pipe.call(&"get_line"))
	on_answer.call_deferred(job[0], answer)
	return true


func _run() -> void:
	while serve_next():
		pass
