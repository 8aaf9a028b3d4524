/* SPDX-License-Identifier: MIT */
/*
 * A project's own <linux/cleanup.h>, shaped as the kernel's since 6.13
 * (written for this test): a guard records whether it is conditional,
 * conditional forms extend the plain class (EXTEND_CLASS), and
 * scoped_guard() runs its block when the guard is unconditional or got
 * the lock.  bcachefs-tools carries such a copy; on the include path
 * before kmutex's it wins (the same include guard), and kmutex's lock
 * headers must then build their guards with it alone (they used to
 * need a macro that only kmutex's cleanup.h defined).
 */
#ifndef _LINUX_CLEANUP_H
#define _LINUX_CLEANUP_H

#include <stdbool.h>
#include <stddef.h>

#define __shim_paste2(a, b)	a##b
#define __shim_paste(a, b)	__shim_paste2(a, b)
#define __shim_unique(p)	__shim_paste(p, __COUNTER__)

#define DEFINE_CLASS(_name, _type, _exit, _init, _init_args...)	\
	typedef _type class_##_name##_t;				\
	static inline void class_##_name##_destructor(_type *__p)	\
	{ _type _T = *__p; _exit; }					\
	static inline _type class_##_name##_constructor(_init_args)	\
	{ _type __v = _init; return __v; }

#define EXTEND_CLASS(_name, _ext, _init, _init_args...)		\
	typedef class_##_name##_t class_##_name##_ext##_t;		\
	static inline void						\
	class_##_name##_ext##_destructor(class_##_name##_t *__p)	\
	{ class_##_name##_destructor(__p); }				\
	static inline class_##_name##_t					\
	class_##_name##_ext##_constructor(_init_args)			\
	{ class_##_name##_t __v = _init; return __v; }

#define CLASS(_name, var)						\
	class_##_name##_t var __attribute__((__unused__))		\
	__attribute__((__cleanup__(class_##_name##_destructor))) =	\
		class_##_name##_constructor

#define __shim_guard_info(_name, _cond)					\
	static const bool class_##_name##_is_conditional		\
		__attribute__((__unused__)) = _cond;			\
	static inline void *class_##_name##_lock_ptr(class_##_name##_t *__p) \
	{ return (void *)*__p; }

#define DEFINE_GUARD(_name, _type, _lock, _unlock)			\
	DEFINE_CLASS(_name, _type, if (_T) { _unlock; },		\
		     ({ _lock; _T; }), _type _T)			\
	__shim_guard_info(_name, false)

#define DEFINE_GUARD_COND(_name, _ext, _condlock)			\
	EXTEND_CLASS(_name, _ext,					\
		     ({ class_##_name##_t __t = _T;			\
			if (_T && !(_condlock))				\
				__t = NULL;				\
			__t; }),					\
		     class_##_name##_t _T)				\
	__shim_guard_info(_name##_ext, true)

#define guard(_name)	CLASS(_name, __shim_unique(__guard))

#define __shim_scoped(_name, _scope, _done, args...)			\
	for (CLASS(_name, _scope)(args), *_done = NULL;			\
	     !_done && (class_##_name##_lock_ptr(&_scope) ||		\
			!class_##_name##_is_conditional);		\
	     _done = (void *)1)
#define scoped_guard(_name, args...)					\
	__shim_scoped(_name, __shim_unique(__scope),			\
		      __shim_unique(__done), args)

#endif /* _LINUX_CLEANUP_H */
