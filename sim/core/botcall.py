"""How a game's compiled kernel asks a user's bot (sim/core/userbot.py, docs/bots.md).

The kernel is compiled once for every table. A bot file is compiled on its own, as one C
function per bot class; a seat that plays the bot carries that function's address in its
parameter row, so the kernel calls it through the address: a new bot, or an edit to one,
compiles the bot and nothing of the kernel. A bot seat's row holds, after its fallback's
parameters (from the game's `slot` column):

    slot                      the bot's number at the table (1, 2, ...); 0 on a built-in seat
    slot + 1 ...              the bot's own parameters (MAX_PARAMS columns)
    slot + 1 + MAX_PARAMS     bit d set: the bot takes decision d (the game's API order)
    slot + 2 + MAX_PARAMS     the address of the bot's compiled decisions

Each game's decision entry points (sim/<game>/bots.py) ask `takes` first: a built-in seat pays
one compare. The bot's function is called with the decision's number, the state, the rules
block, the seat, its parameter row and up to five numbers, and writes up to five answers.
"""

import numpy as np
from llvmlite import ir
from numba import cfunc
from numba.core import cgutils, types
from numba.extending import intrinsic

from sim.core.event_log import EV_REFUSED, log_event
from sim.core.jit import njit_inline, njit_no_refcount, or_python

MAX_PARAMS = 16  # a bot's own parameters
BOT_COLUMNS = MAX_PARAMS + 3  # the columns of a bot seat after its fallback's parameters
MAX_ARGS = 5  # the numbers a decision passes its bot beside the view and the parameters
MAX_ANSWERS = 5
# A decision's answer (or its first number) that hands this one decision to the bot's fallback.
FALLBACK = -2
# A kernel status at or above REFUSED ends a game on a bot's move: REFUSED + 2 * MAX_DECISIONS * (bot
# number - 1) + the decision's index, plus MAX_DECISIONS when the decision raised an exception.
REFUSED = 100
MAX_DECISIONS = 16
# What a bot's function returns besides its answers.
ANSWERED = 0
RAISED = 1

# The Python functions of bots when numba's JIT is off (monosim --plain): a seat's "address" is
# its place in this list, plus one.
PLAIN_BOTS = []


def _call_plain(address, d, S, RB, p, row, x0, x1, x2, x3, x4):
    out = np.zeros(MAX_ANSWERS, np.int64)
    status = PLAIN_BOTS[int(address) - 1](d, S, RB, p, row, x0, x1, x2, x3, x4, out)
    return (status, *out)


@or_python(_call_plain)
@intrinsic
def call_bot(typingctx, address, d, S, RB, p, row, x0, x1, x2, x3, x4):
    """(status, five answers) of the bot function at `address` (ANSWERED or RAISED): the C
    function userbot compiles, int64 f(d, S, len(S), RB, len(RB), p, row, len(row), x0..x4,
    answers), S and RB int32 arrays, row a float64 array, x0..x4 numbers passed as float64."""
    xs = (x0, x1, x2, x3, x4)
    if not (isinstance(address, types.Integer) and isinstance(d, types.Integer) and isinstance(p, types.Integer)
            and all(isinstance(a, types.Array) and a.ndim == 1 for a in (S, RB, row))
            and S.dtype == RB.dtype == types.int32 and row.dtype == types.float64
            and all(isinstance(x, (types.Number, types.Boolean)) for x in xs)):
        return None
    i64 = ir.IntType(64)

    def codegen(context, builder, signature, args):
        def number(k, to):
            return context.cast(builder, args[k], signature.args[k], to)

        def array(k):
            a = context.make_array(signature.args[k])(context, builder, args[k])
            return [a.data, builder.extract_value(a.shape, 0)]

        answers = cgutils.alloca_once(builder, i64, size=MAX_ANSWERS)
        for k in range(MAX_ANSWERS):  # the answers a decision leaves unset read 0
            builder.store(ir.Constant(i64, 0), builder.gep(answers, [ir.Constant(i64, k)]))
        values = ([number(1, types.int64)] + array(2) + array(3) + [number(4, types.int64)] + array(5)
                  + [number(k, types.float64) for k in range(6, 11)] + [answers])
        fnty = ir.FunctionType(i64, [v.type for v in values])
        fn = builder.inttoptr(number(0, types.int64), fnty.as_pointer())
        status = builder.call(fn, values)
        out = [status] + [builder.load(builder.gep(answers, [ir.Constant(i64, k)])) for k in range(MAX_ANSWERS)]
        return context.make_tuple(builder, signature.return_type, out)

    return types.UniTuple(types.int64, 1 + MAX_ANSWERS)(address, d, S, RB, p, row, *xs), codegen


@njit_inline
def takes(row, slot, d):
    """Whether the seat of this parameter row is a user's bot that takes decision d. The row must
    have the bot columns: every parameter matrix is made by userbot.stack_rows."""
    return row[slot] != 0 and (np.int64(row[slot + 1 + MAX_PARAMS]) >> d) & 1 == 1


@njit_inline
def ask(row, slot, d, S, RB, p, x0=0.0, x1=0.0, x2=0.0, x3=0.0, x4=0.0):
    """The bot's answer to decision d, as (status, five answers): see call_bot. A row whose
    address was never filled in (a bug) ends the game as an exception would, not the process."""
    address = np.int64(row[slot + 2 + MAX_PARAMS])
    if address == 0:
        return RAISED, 0, 0, 0, 0, 0
    return call_bot(address, d, S, RB, p, row, x0, x1, x2, x3, x4)


@njit_no_refcount
def refuse(S, state_size, status_at, row, slot, d, status, card, n, a0, a1, a2, a3, a4):
    """End the game on the bot's move at decision d: an exception (status RAISED), or a refused
    answer of n numbers, logged (EV_REFUSED rows, which a replay reads for the message: a head
    row (n, card, 0), then the numbers three a row), with the card it plays (-1: none)."""
    S[status_at] = REFUSED + 2 * MAX_DECISIONS * (np.int64(row[slot]) - 1) + d
    if status == RAISED:
        S[status_at] += MAX_DECISIONS
        return
    log_event(S, state_size, EV_REFUSED, -1, n, card, 0)
    log_event(S, state_size, EV_REFUSED, -1, a0, a1, a2)
    if n > 3:
        log_event(S, state_size, EV_REFUSED, -1, a3, a4, 0)



# The C signature of a bot class's compiled decisions (see call_bot).
C_SIGNATURE = types.int64(types.int64, types.CPointer(types.int32), types.int64, types.CPointer(types.int32),
                          types.int64, types.int64, types.CPointer(types.float64), types.int64,
                          *[types.float64] * MAX_ARGS, types.CPointer(types.int64))


def compile_bot(decide):
    """A bot class's decisions as the C function the kernels call (cached like the kernels)."""
    return cfunc(C_SIGNATURE, cache=True)(decide)


@njit_no_refcount
def bot_yes_no(S, state_size, status_at, row, slot, d, RB, p, x0=0.0, x1=0.0, x2=0.0, x3=0.0, x4=0.0):
    """A bot's yes (1) or no (0) to decision d, or FALLBACK, where the built-in bot decides
    (also after an exception, which ends the game)."""
    status, a, _, _, _, _ = ask(row, slot, d, S, RB, p, x0, x1, x2, x3, x4)
    if status != ANSWERED:
        refuse(S, state_size, status_at, row, slot, d, status, -1, 0, 0, 0, 0, 0, 0)
        return FALLBACK
    if a == FALLBACK:
        return FALLBACK
    return 1 if a != 0 else 0
