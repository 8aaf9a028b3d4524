// SPDX-License-Identifier: MIT
/*
 * stack.c - backtraces for reports, with function names.
 *
 * backtrace() from <execinfo.h> walks the stack; dladdr1() names each
 * address from the dynamic symbol tables (functions of the executable
 * are there if it was linked with -rdynamic, which kmutex-debug.pc
 * adds).  Static functions, and file:line, come from symbolize.c (libdw
 * or the ELF .symtab); the module and offset are printed too, for
 * addr2line.
 */
#include "../api.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <string.h>

#include "debug.h"
#include "symbolize.h"

/*
 * The first backtrace() loads libgcc's unwinder (with malloc): do it at
 * start-up, not in a report made inside a signal handler.
 */
void stack_warm_up(void)
{
	void *ip[2];

	backtrace(ip, 2);
}

/*
 * Save the current stack, starting at the frame that contains @from_ip
 * (the return address into the program of a kmutex call), so that the
 * checker's own frames are left out however the compiler inlined them.
 * If @from_ip is not found, or NULL, the whole stack is kept.
 */
void stack_save(struct kmutex_stack *s, const void *from_ip)
{
	void *ip[MAX_STACK + 8];
	int n = backtrace(ip, MAX_STACK + 8), i, start = 0;

	for (i = 0; from_ip && i < n; i++)
		if (ip[i] == from_ip) {
			start = i;
			break;
		}
	s->n = 0;
	for (i = start; i < n && s->n < MAX_STACK; i++)
		s->ip[s->n++] = ip[i];
}

/*
 * "func+0x1c/0x40 (prog+0x1234) at f.c:12" for one address: the name from
 * the dynamic symbols, else from symbolize() (static functions), and
 * file:line where symbolize() finds debug information.
 */
void ip_print(const void *ip)
{
	const ElfW(Sym) *sym = NULL;
	struct sym_info si;
	const char *mod;
	Dl_info info;

	if (!ip) {
		rprintf("?");
		return;
	}
	if (!dladdr1(ip, &info, (void **)&sym, RTLD_DL_SYMENT)) {
		rprintf("%p", ip);
		return;
	}
	mod = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
	mod = mod ? mod + 1 : info.dli_fname ? info.dli_fname : "?";
	if (!symbolize(ip, &info, &si))
		si.file = NULL;
	if (info.dli_sname && info.dli_saddr)
		rprintf("%s+0x%lx/0x%lx ", info.dli_sname,
			(unsigned long)((const char *)ip -
					(const char *)info.dli_saddr),
			sym ? (unsigned long)sym->st_size : 0ul);
	else if (si.name)
		rprintf("%s+0x%lx/0x%lx ", si.name, si.offset, si.size);
	rprintf("(%s+0x%lx)", mod, (unsigned long)((const char *)ip -
					(const char *)info.dli_fbase));
	if (si.file)
		rprintf(" at %s:%d", si.file, si.line);
}

void stack_print(const struct kmutex_stack *s, const char *indent)
{
	int i;

	for (i = 0; i < s->n; i++) {
		rprintf("%s", indent);
		ip_print(s->ip[i]);
		rprintf("\n");
	}
}
