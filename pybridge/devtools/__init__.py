"""Developer tools: what never ships in a game.

The benchmarks (:mod:`.bench`, ``pybridge bench``), the fuzzer and its seeds
(:mod:`.fuzzing`, ``pybridge fuzz``), the native library's build (:mod:`.build`,
``pybridge build``) and the release (:mod:`.release`, ``pybridge dist``). A shipped module
never imports from here (tests/test_layout.py); :mod:`pybridge.payload` lists what ships.
"""
