/* SPDX-License-Identifier: MIT */
/*
 * percpu_rwsem.pml - the reader/writer handshake of src/percpu_rwsem.c.
 *
 * Two readers, each going in and out twice on a nondeterministically
 * chosen slot (a reader may leave on another CPU than it came in on),
 * and one writer, twice.  Every statement is one atomic step of
 * sequential consistency: the C code has a full barrier between each
 * side's store and its load (reader: count++ / block; writer: block = 1
 * / the sum), which is exactly what that buys.  The inner rw_semaphore
 * is modelled as what the protocol needs of it (one writer; readers wait
 * while it is held for writing), the futex as "sleep while the word is
 * unchanged, until a wake".
 *
 * Checked: mutual exclusion (assertions), and no thread left asleep
 * (spin's invalid end states: a writer asleep on writer_seq after the
 * last wake-up, a reader asleep on the rwsem).
 *   spin -a percpu_rwsem.pml && cc -O2 -DSAFETY -o pan pan.c && ./pan
 * -DBUSTED_NO_WAKE (the leaving reader does not wake the writer) and
 * -DBUSTED_SEQ_AFTER (the writer loads writer_seq after summing) must
 * fail.
 */
#define SLOTS 2

short count[SLOTS];		/* readers per slot; one may go negative */
bit block;			/* a writer holds it or is draining */
byte writer_seq;		/* futex word */
bit wsleep;			/* the writer is asleep on writer_seq */
bit rw_write;			/* inner rwsem held for writing */
byte rw_readers;		/* inner rwsem held for reading */
byte readers_in;		/* readers inside the read section */
bit writer_in;			/* the writer inside its section */

inline reader_leave(s)
{
	if
	:: s = 0
	:: s = 1
	fi;
	count[s] = count[s] - 1;
	if
	:: block ->
		writer_seq = writer_seq + 1;
#ifndef BUSTED_NO_WAKE
		wsleep = 0
#else
		skip
#endif
	:: else -> skip
	fi
}

proctype reader()
{
	byte s, round = 0;

	do
	:: round == 2 -> break
	:: else ->
		/* percpu_down_read */
		if
		:: s = 0
		:: s = 1
		fi;
		count[s] = count[s] + 1;
		if
		:: !block -> skip
		:: else ->
			reader_leave(s);
			/* slow path: down_read(rwsem); count++; up_read */
			atomic { !rw_write -> rw_readers++ };
			if
			:: s = 0
			:: s = 1
			fi;
			count[s] = count[s] + 1;
			rw_readers--
		fi;
		readers_in++;
		assert(!writer_in);
		readers_in--;
		/* percpu_up_read */
		reader_leave(s);
		round++
	od
}

proctype writer()
{
	byte seq, round = 0;

	do
	:: round == 2 -> break
	:: else ->
		/* percpu_down_write */
		atomic { !rw_write && rw_readers == 0 -> rw_write = 1 };
		block = 1;
		do
		::
#ifndef BUSTED_SEQ_AFTER
			seq = writer_seq;
#endif
			if
			:: count[0] + count[1] == 0 -> break
			:: else ->
#ifdef BUSTED_SEQ_AFTER
				seq = writer_seq;
#endif
				/* futex_wait: sleep if unchanged, until woken */
				atomic {
					if
					:: writer_seq == seq -> wsleep = 1
					:: else -> skip
					fi
				};
				wsleep == 0
			fi
		od;
		writer_in = 1;
		assert(readers_in == 0);
		writer_in = 0;
		/* percpu_up_write */
		block = 0;
		rw_write = 0;
		round++
	od
}

init
{
	atomic {
		run reader();
		run reader();
		run writer()
	}
}
