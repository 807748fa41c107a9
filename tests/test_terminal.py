#!/usr/bin/env python3
"""mtref at a real terminal: a pseudo-terminal drives it as a person would (prompt,
line editing and history, undo, save, colour on and off, wrapping), and the saved
game is adjudicated again by `mtref check`. Usage: test_terminal.py PATH/TO/mtref"""
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import termios
import time

MTREF = os.path.abspath(sys.argv[1])
SGR = re.compile(rb"\x1b\[[0-9;]*m")          # colour codes (libedit's cursor moves are not)
passed = failed = 0
EDITING = b"libedit" in subprocess.run([MTREF, "--version"], capture_output=True).stdout


def check(name, condition, detail=b""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}\n     {detail[-1500:]!r}")


class Session:
    """mtref on a pseudo-terminal; stdout to the terminal too unless out_file."""

    def __init__(self, env=None, out_file=None, args=(), cwd=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update({"TERM": "xterm", "COLUMNS": "80"})
            os.environ.pop("NO_COLOR", None)
            os.environ.update(env or {})
            if cwd:
                os.chdir(cwd)
            if out_file:
                out = os.open(out_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(out, 1)
            os.execv(MTREF, [MTREF, *args])
        self.seen = b""

    def read_until(self, needle, timeout=5.0):
        end = time.time() + timeout
        while needle not in self.seen and time.time() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:
                    break
        return needle in self.seen

    def editor_reading(self, timeout=5.0):
        """Waits until line editing reads the terminal: libedit prints its prompt
        before it turns canonical mode off, and keys typed in between would be
        cooked by the terminal (an arrow echoed as ^[[A). The pseudo-terminal's
        modes are read from its master side. Without libedit there is nothing to
        wait for."""
        end = time.time() + timeout
        while EDITING and time.time() < end:
            if not termios.tcgetattr(self.fd)[3] & termios.ICANON:
                return
            time.sleep(0.005)

    def send(self, keys, until=b"> "):
        self.seen = b""
        self.editor_reading()
        os.write(self.fd, keys.encode())
        self.read_until(until)
        return self.seen

    def close(self):
        try:
            os.write(self.fd, b"quit\r")
        except OSError:
            pass
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)


work = tempfile.mkdtemp(prefix="mtref-terminal-")
try:
    # a game at the keyboard: banner, prompt, editing, history, undo, save
    s = Session()
    check("banner and first prompt", s.read_until(b"set-up> "), s.seen)
    check("the banner names help, undo and quit", b"help" in s.seen and b"undo" in s.seen and b"quit" in s.seen, s.seen)
    s.send("players ana bob\r")
    s.send("rounds 1\r")
    out = s.send("seed 42\r")
    check("the prompt says whose turn it is", b"ana" in out and b"to play> " in out, out)
    check("the player to act is in colour", b"\x1b[1;32mana\x1b[0m to play" in out, out)
    # a typo fixed with the arrow keys: "ana play 7-12 aa", left, "n" -> "ana"
    if EDITING:
        out = s.send("ana play 7-12 aa\x1b[Dn\r")
        check("line editing: left arrow and insert", b"\r\nok\r\n" in out and b"bob" in out, out)
        out = s.send("bob play 8-12 bob\r")
        # history: up arrow twice brings back "ana play 7-12 ana"; edit it to 7-11
        out = s.send("\x1b[A\x1b[A\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f7-11 ana\r")
        check("history: up arrow recalls an earlier line", b"\r\nok\r\n" in out, out)
    else:
        print("skip line editing and history: mtref is built without libedit")
        for line in ["ana play 7-12 ana", "bob play 8-12 bob", "ana play 7-11 ana"]:
            s.send(line + "\r")
    out = s.send("bob play 6-7 mex\r")
    check("an error is answered and the session goes on", b"no-match" in out and b"to play> " in out, out)
    check("errors are coloured", b"\x1b[1;31merror\x1b[0m" in out, out)
    out = s.send("bob play 8-8 bob\r")
    out = s.send("undo\r")
    check("undo takes back the last accepted line", b"undone: bob play 8-8 bob" in out, out)
    out = s.send("show\r")
    check("after undo the double is gone", b"8-8" in out and b"uncovered" not in out and b"bob" in out, out)
    out = s.send("Show\r")
    check("a capitalised keyword gets a hint", b"keywords are lower case: show, not Show" in out, out)
    out = s.send("help\r")
    check("help lists the commands and the legal moves", b"save FILE" in out and b"legal: bob play" in out, out)
    saved = os.path.join(work, "saved.mtr")
    out = s.send(f"save {saved}\r")
    check("save reports the lines written", b"saved 6 lines to" in out, out)
    out = s.send("legal\r")
    check("long lines wrap at the terminal width",
          all(len(SGR.sub(b"", line)) <= 80 for line in out.split(b"\r\n")), out)
    status = s.close()
    check("quit leaves with the worst status seen (2: a syntax error)", status == 2, str(status).encode())
    text = open(saved, "rb").read()
    check("the saved record holds the accepted lines only",
          b"undo" not in text and b"6-7" not in text and b"8-8" not in text and b"ana play 7-11 ana" in text, text)
    verdict = subprocess.run([MTREF, "check", saved], capture_output=True)
    check("check accepts the saved game", verdict.returncode == 0 and b": ok, incomplete" in verdict.stdout,
          verdict.stdout + verdict.stderr)

    # a round played to its end: show then draws the final table with the points
    with open(os.path.join(work, "one-tile.lua"), "w") as f:
        f.write('return { description = "one tile each", hand_size = function(n) return 1 end }\n')
    record = os.path.join(work, "record.mtr")
    s = Session(args=["--record", record], cwd=work)
    s.read_until(b"> ")
    for line in ["rules one-tile", "players ana bob", "rounds 1", "deal ana 11-12", "deal bob 1-5"]:
        s.send(line + "\r")
    out = s.send("ana play 12-11 ana\r")
    check("a round end says how to see its table", b"show draws the table as this round ended" in out, out)
    out = s.send("show\r")
    check("show after the round end draws the final table and the points",
          b"round 1 is over" in out and b"ana went out; points ana 0, bob 6" in out and b"12-11" in out
          and b"1-5" in out, out)
    s.close()
    text = open(record, "rb").read()
    check("the record is written as the game goes", b"ana play 12-11 ana" in text and b"show" not in text, text)
    verdict = subprocess.run([MTREF, "check", "record.mtr"], capture_output=True, cwd=work)
    check("check accepts the --record file", verdict.returncode == 0 and b"ana wins: ana 0, bob 6" in verdict.stdout,
          verdict.stdout + verdict.stderr)

    # NO_COLOR: no colour codes at all
    s = Session(env={"NO_COLOR": "1"})
    s.read_until(b"set-up> ")
    s.send("players ana bob\r")
    out = s.send("seed 1\r") + s.send("bob pass\r")
    check("NO_COLOR turns colour off", not SGR.search(out) and b"not-your-turn" in out, out)
    s.close()

    # output that is not a terminal: no colour, no prompt in the output
    plain = os.path.join(work, "plain.txt")
    s = Session(out_file=plain)
    time.sleep(0.2)
    os.write(s.fd, b"players ana bob\rseed 1\rbob pass\r")
    time.sleep(0.5)
    s.close()
    text = open(plain, "rb").read()
    check("colour is off when the output is not a terminal", not SGR.search(text) and b"not-your-turn" in text, text)

    # undo from a pipe is refused: it is not a keyboard
    piped = subprocess.run([MTREF, "-k"], input=b"players ana bob\nundo\n", capture_output=True)
    check("undo from a pipe is a syntax error", b"syntax" in piped.stdout and piped.returncode == 2, piped.stdout)
finally:
    shutil.rmtree(work, ignore_errors=True)

print(f"terminal: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
