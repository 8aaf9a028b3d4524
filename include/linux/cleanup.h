/* SPDX-License-Identifier: MIT */
/*
 * <linux/cleanup.h> - scope-based cleanup and lock guards.
 *
 * kmutex's own implementation of the interface kernel code uses since
 * Linux 6.5 (guard(), scoped_guard(), scoped_cond_guard(), CLASS(),
 * DEFINE_GUARD(), DEFINE_GUARD_COND(), __free()), and the macros that
 * later kernel headers define their spinlock and RCU guards with
 * (DEFINE_LOCK_GUARD_0/1(), DEFINE_LOCK_GUARD_1_COND(), EXTEND_CLASS(),
 * DEFINE_CLASS_IS_GUARD()), built on the compiler's cleanup attribute
 * (gcc and clang).
 *
 * A "class" is a type with a constructor and a destructor that runs when
 * a variable of the class leaves its scope.  A guard is a class whose
 * value is the lock pointer: the constructor takes the lock, the
 * destructor releases it unless the value is NULL (a conditional guard
 * whose lock attempt failed).
 *
 * The destructor runs only where the compiled code leaves the scope, as
 * pthread_cleanup_push() handlers are limited (cleanup(3), NOTES): a
 * thread cancelled (pthread_cancel) or ending in pthread_exit() inside a
 * guard's scope runs it only if that code was compiled with -fexceptions
 * (glibc unwinds the stack then); without it, or with musl (which does
 * not unwind), the lock stays held for ever.  longjmp() out of the scope
 * never runs it.  tests/cleanup_cancel.sh shows both with glibc.
 */
#ifndef _LINUX_CLEANUP_H
#define _LINUX_CLEANUP_H

#include <kmutex/compiler.h>

__KMUTEX_BEGIN_DECLS

/*
 * Every function the macros below define may go unused (a guard taken
 * only with guard() never needs its lock_ptr), and clang's -Wall warns
 * about an unused static inline function of the main file.
 */
#define __kmutex_class_fn	static inline __attribute__((__unused__))
/* Guard constructors and destructors: see DEFINE_GUARD. */
#define __kmutex_class_fn_inline	\
	static __kmutex_inline __attribute__((__unused__))

/**
 * DEFINE_CLASS - declare a class with constructor and destructor
 * @_name: class name
 * @_type: type of its value
 * @_exit: destructor statement; sees the value as _T
 * @_init: constructor expression; sees the constructor's arguments
 * @...: the constructor's parameter list
 */
#define DEFINE_CLASS(_name, _type, _exit, _init, ...)			\
typedef _type class_##_name##_t;					\
__kmutex_class_fn void class_##_name##_destructor(_type *__kmutex_p)	\
{									\
	_type _T = *__kmutex_p;						\
	_exit;								\
}									\
__kmutex_class_fn _type class_##_name##_constructor(__VA_ARGS__)	\
{									\
	_type __kmutex_t = _init;					\
	return __kmutex_t;						\
}

/*
 * CLASS(name, var)(args): a variable whose destructor runs at scope end.
 * A guard's variable is never read, only destroyed: "unused" tells clang
 * that this is intended.
 */
#define CLASS(_name, var)						\
	class_##_name##_t var __attribute__((__unused__))		\
	__attribute__((__cleanup__(class_##_name##_destructor))) =	\
		class_##_name##_constructor

/*
 * The lock headers declare each guard's constructor with
 * __KMUTEX_GUARD_ASSERTS (kmutex/capability.h) before DEFINE_GUARD: for
 * clang's thread-safety analysis, from the guard on the lock is held.
 * scoped_guard() takes the lock inside its loop condition, so that the
 * path which skips the block meets the one leaving it and the claim
 * ends with the block; a guard() claim lasts until the paths of an
 * if or a loop around it meet, or the function ends.
 */

/*
 * __DEFINE_CLASS_IS_CONDITIONAL(name, is_cond): whether a guard class's
 * constructor may fail, leaving a NULL value.  scoped_guard() skips its
 * block only for such a class; for the others the compiler sees that the
 * block runs (gcc's -Wmaybe-uninitialized saw a variable the block sets
 * as maybe unset after it).  The kernel's name, which a program with a
 * hand-written class_<name>_lock_ptr() uses too (bcachefs-tools does).
 */
#define __DEFINE_CLASS_IS_CONDITIONAL(_name, _is_cond)			\
	static __attribute__((__unused__)) const bool			\
	class_##_name##_is_conditional = (_is_cond)
#define __guard_ptr(_name)	class_##_name##_lock_ptr
#define __is_cond_ptr(_name)	class_##_name##_is_conditional

/**
 * DEFINE_GUARD - declare a lock guard class
 * @_name: guard name, as used by guard(_name)
 * @_type: the lock pointer type
 * @_lock: statement taking the lock _T
 * @_unlock: statement releasing the lock _T
 */
#define DEFINE_GUARD(_name, _type, _lock, _unlock)			\
	__kmutex_class_fn_inline void					\
	class_##_name##_destructor(_type *__kmutex_p) __kmutex_no_analysis; \
	__kmutex_class_fn_inline _type					\
	class_##_name##_constructor(_type _T) __kmutex_no_analysis;	\
	DEFINE_CLASS(_name, _type, if (_T) { _unlock; },		\
		     __extension__ ({ _lock; _T; }), _type _T)		\
	__DEFINE_CLASS_IS_CONDITIONAL(_name, false);			\
	__kmutex_class_fn void *					\
	class_##_name##_lock_ptr(class_##_name##_t *_T)		\
	{ return (void *)*_T; }

/**
 * DEFINE_GUARD_COND - add a conditional form to a guard class
 * @_name: the guard class
 * @_ext: suffix of the new class (_try, _intr ...)
 * @_condlock: expression that tries to take _T, true when it got it
 */
#define DEFINE_GUARD_COND(_name, _ext, _condlock)			\
	typedef class_##_name##_t class_##_name##_ext##_t;		\
	__DEFINE_CLASS_IS_CONDITIONAL(_name##_ext, true);		\
	__kmutex_class_fn_inline class_##_name##_t			\
	class_##_name##_ext##_constructor(class_##_name##_t _T)		\
		__kmutex_no_analysis;					\
	__kmutex_class_fn_inline void					\
	class_##_name##_ext##_destructor(class_##_name##_t *__kmutex_p)	\
	{ class_##_name##_destructor(__kmutex_p); }			\
	__kmutex_class_fn class_##_name##_t				\
	class_##_name##_ext##_constructor(class_##_name##_t _T)		\
	{ return (_T && (_condlock)) ? _T : (class_##_name##_t)0; }	\
	__kmutex_class_fn void *					\
	class_##_name##_ext##_lock_ptr(class_##_name##_t *_T)		\
	{ return class_##_name##_lock_ptr(_T); }

/**
 * EXTEND_CLASS - another constructor for a class
 * @_name: the class
 * @ext: suffix of the new class (_level, _try ...)
 * @_init: the new constructor's expression
 * @...: its parameter list
 *
 * The new class has the value type and the destructor of @_name.
 */
#define EXTEND_CLASS(_name, ext, _init, ...)				\
	typedef class_##_name##_t class_##_name##ext##_t;		\
	__kmutex_class_fn void						\
	class_##_name##ext##_destructor(class_##_name##_t *__kmutex_p)	\
	{ class_##_name##_destructor(__kmutex_p); }			\
	__kmutex_class_fn class_##_name##_t				\
	class_##_name##ext##_constructor(__VA_ARGS__)			\
	{ class_##_name##_t __kmutex_t = _init; return __kmutex_t; }

/**
 * DEFINE_CLASS_IS_GUARD - make a class a guard for scoped_guard()
 * @_name: a class of DEFINE_CLASS() or EXTEND_CLASS() whose value is a
 *	pointer (or an integer)
 *
 * scoped_guard(@_name, ...) then runs its block whatever the value.
 */
#define DEFINE_CLASS_IS_GUARD(_name)					\
	__DEFINE_CLASS_IS_CONDITIONAL(_name, false);			\
	__KMUTEX_CLASS_LOCK_PTR(_name)
#define __KMUTEX_CLASS_LOCK_PTR(_name)					\
	__kmutex_class_fn void *					\
	class_##_name##_lock_ptr(class_##_name##_t *_T)		\
	{ return (void *)(unsigned long)*_T; }

/**
 * DEFINE_CLASS_IS_COND_GUARD - make a class a conditional guard
 * @_name: the class; see DEFINE_CLASS_IS_GUARD()
 *
 * scoped_guard(@_name, ...) runs its block when the value is not NULL (0).
 */
#define DEFINE_CLASS_IS_COND_GUARD(_name)				\
	__DEFINE_CLASS_IS_CONDITIONAL(_name, true);			\
	__KMUTEX_CLASS_LOCK_PTR(_name)

/**
 * DEFINE_CLASS_IS_UNCONDITIONAL - make a class a guard that always runs
 * @_name: a class whose value is not a lock pointer (a struct ...)
 *
 * scoped_guard(@_name, ...) runs its block whatever the value.
 */
#define DEFINE_CLASS_IS_UNCONDITIONAL(_name)				\
	__DEFINE_CLASS_IS_CONDITIONAL(_name, false);			\
	__kmutex_class_fn void *					\
	class_##_name##_lock_ptr(class_##_name##_t *_T)		\
	{ (void)_T; return (void *)1; }

/*
 * The guards of DEFINE_LOCK_GUARD_0/1: a struct holding the lock pointer
 * and the members the lock statement keeps (saved flags ...), which the
 * statements see through the pointer _T.  Neither the constructor nor
 * the destructor is analysed by clang (see __KMUTEX_GUARD_ASSERTS): the
 * lock they take is released at scope end, out of the analysis' sight.
 * __extension__: an empty member list leaves an empty declaration.
 */
#define __KMUTEX_LOCK_GUARD_TYPE(_name, _type, _unlock, ...)		\
	__extension__ typedef struct {					\
		_type *lock;						\
		__VA_ARGS__;						\
	} class_##_name##_t;						\
	__kmutex_class_fn_inline void					\
	class_##_name##_destructor(class_##_name##_t *_T)		\
		__kmutex_no_analysis;					\
	__kmutex_class_fn_inline void					\
	class_##_name##_destructor(class_##_name##_t *_T)		\
	{ if (_T->lock) { _unlock; } }					\
	__kmutex_class_fn void *					\
	class_##_name##_lock_ptr(class_##_name##_t *_T)		\
	{ return (void *)(unsigned long)_T->lock; }

/* The zeroed guard, then the lock pointer: members start as 0. */
#define __KMUTEX_LOCK_GUARD_CTOR(_name, _lock, _args, _ptr)		\
	__kmutex_class_fn_inline class_##_name##_t			\
	class_##_name##_constructor _args __kmutex_no_analysis;		\
	__kmutex_class_fn_inline class_##_name##_t			\
	class_##_name##_constructor _args				\
	{								\
		class_##_name##_t __kmutex_g, *_T = &__kmutex_g;	\
		__builtin_memset(_T, 0, sizeof(*_T));			\
		_T->lock = _ptr;					\
		_lock;							\
		return __kmutex_g;					\
	}

/**
 * DEFINE_LOCK_GUARD_1 - a guard for a lock taken by a statement
 * @_name: guard name, as used by guard(_name)(lock)
 * @_type: the lock's type (the guard's argument is a @_type pointer)
 * @_lock: statement taking the lock _T->lock
 * @_unlock: statement releasing it
 * @...: further members of the guard (e.g. unsigned long flags), which
 *	the statements use as _T->member
 */
#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)		\
	__DEFINE_CLASS_IS_CONDITIONAL(_name, false);			\
	__KMUTEX_LOCK_GUARD_TYPE(_name, _type, _unlock, __VA_ARGS__)	\
	__KMUTEX_LOCK_GUARD_CTOR(_name, _lock, (_type *__kmutex_l),	\
				 __kmutex_l)

/**
 * DEFINE_LOCK_GUARD_0 - a guard for a lock without an argument
 * @_name: guard name, as used by guard(_name)()
 * @_lock: statement taking it (rcu_read_lock() ...)
 * @_unlock: statement releasing it
 * @...: further members of the guard, as for DEFINE_LOCK_GUARD_1
 */
#define DEFINE_LOCK_GUARD_0(_name, _lock, _unlock, ...)			\
	__DEFINE_CLASS_IS_CONDITIONAL(_name, false);			\
	__KMUTEX_LOCK_GUARD_TYPE(_name, void, _unlock, __VA_ARGS__)	\
	__KMUTEX_LOCK_GUARD_CTOR(_name, _lock, (void), (void *)1)

/**
 * DEFINE_LOCK_GUARD_1_COND - add a conditional form to a lock guard
 * @_name: a guard of DEFINE_LOCK_GUARD_1
 * @_ext: suffix of the new guard (_try ...)
 * @_condlock: expression that tries to take _T->lock, true if it got it
 */
#define DEFINE_LOCK_GUARD_1_COND(_name, _ext, _condlock)		\
	typedef class_##_name##_t class_##_name##_ext##_t;		\
	__DEFINE_CLASS_IS_CONDITIONAL(_name##_ext, true);		\
	__kmutex_class_fn_inline void					\
	class_##_name##_ext##_destructor(class_##_name##_t *__kmutex_p)	\
	{ class_##_name##_destructor(__kmutex_p); }			\
	__KMUTEX_LOCK_GUARD_CTOR(_name##_ext,				\
		if (_T->lock && !(_condlock)) _T->lock = __KMUTEX_NULL,	\
		(__typeof__(((class_##_name##_t *)0)->lock) __kmutex_l), \
		__kmutex_l)						\
	__kmutex_class_fn void *					\
	class_##_name##_ext##_lock_ptr(class_##_name##_t *_T)		\
	{ return class_##_name##_lock_ptr(_T); }

/* guard(mutex)(&lock): hold the lock until the enclosing scope ends. */
#define guard(_name)	CLASS(_name, __KMUTEX_UNIQUE(guard))

/*
 * The lock is taken in the condition: see __KMUTEX_GUARD_ASSERTS.  The
 * variable starts as zero (NULL, or a lock guard's struct of zeroes)
 * all the same: its destructor runs if the constructor or an argument
 * is left by an exception or a thread's cancellation (-fexceptions),
 * and gcc warns of a value used uninitialised there.
 */
#ifdef __cplusplus
#define __KMUTEX_ZERO	{}
#else
#define __KMUTEX_ZERO	{ 0 }
#endif
#define __kmutex_scoped_var(_name, _scope)				\
	class_##_name##_t _scope					\
	__attribute__((__cleanup__(class_##_name##_destructor))) =	\
		__KMUTEX_ZERO

#define __kmutex_scoped_guard(_name, _scope, _done, ...)		\
	for (__kmutex_scoped_var(_name, _scope), *_done = __KMUTEX_NULL; \
	     !_done && (_scope = class_##_name##_constructor(__VA_ARGS__), \
			class_##_name##_lock_ptr(&_scope) ||		\
			!class_##_name##_is_conditional);		\
	     _done = (class_##_name##_t *)1)

/*
 * scoped_guard(mutex, &lock) { ... }: hold the lock for the block; for a
 * conditional guard (mutex_try) the block runs only if it was taken
 * (see __DEFINE_CLASS_IS_CONDITIONAL).
 */
#define scoped_guard(_name, ...)					\
	__kmutex_scoped_guard(_name, __KMUTEX_UNIQUE(scope),		\
			      __KMUTEX_UNIQUE(done), __VA_ARGS__)

#define __kmutex_scoped_cond_guard(_name, _fail, _scope, _done, ...)	\
	for (__kmutex_scoped_var(_name, _scope), *_done = __KMUTEX_NULL; \
	     !_done && (_scope = class_##_name##_constructor(__VA_ARGS__), 1); \
	     _done = (class_##_name##_t *)1)				\
		if (!class_##_name##_lock_ptr(&_scope)) { _fail; } else

/*
 * scoped_cond_guard(mutex_intr, return -EINTR, &lock) { ... }: run the
 * block with the lock held, or the _fail statement if it was not taken.
 */
#define scoped_cond_guard(_name, _fail, ...)				\
	__kmutex_scoped_cond_guard(_name, _fail, __KMUTEX_UNIQUE(scope), \
				   __KMUTEX_UNIQUE(done), __VA_ARGS__)

/* __free(name): run DEFINE_FREE's statement on the variable at scope end. */
#define DEFINE_FREE(_name, _type, _free)				\
	__kmutex_class_fn void __free_##_name(void *__kmutex_p)		\
	{ _type _T = *(_type *)__kmutex_p; _free; }
#define __free(_name)	__attribute__((__cleanup__(__free_##_name)))

/* Take the value out of a __free variable so that nothing is freed. */
#ifdef __cplusplus
#define no_free_ptr(p)							\
	__extension__ ({ auto __kmutex_ptr = (p); (p) = nullptr; __kmutex_ptr; })
#else
#define no_free_ptr(p)							\
	__extension__ ({ __auto_type __kmutex_ptr = (p); (p) = (void *)0; \
			 __kmutex_ptr; })
#endif
#define return_ptr(p)	return no_free_ptr(p)

__KMUTEX_END_DECLS

#endif /* _LINUX_CLEANUP_H */
