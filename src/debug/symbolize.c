// SPDX-License-Identifier: MIT
/*
 * symbolize.c - names for the addresses that dladdr() cannot name:
 * static functions (not in the dynamic symbol table), and the file:line
 * of every frame where debug information is present.
 *
 * Two sources, best first:
 *
 *   libdw     elfutils' DWARF reader (Debian libdw-dev), when the build
 *             found it (KMUTEX_HAVE_LIBDW, detected by the Makefile):
 *             function names from the full symbol table and file:line
 *             from the line tables, also of separate debug files.  It
 *             allocates, so it is not used in a signal handler;
 *   .symtab   otherwise: the module's ELF file is mapped (open and mmap
 *             are async-signal-safe) and its full symbol table searched
 *             for the function that contains the address: names, no
 *             file:line.  A stripped file has no .symtab: then the
 *             module+offset alone is printed, as before.
 *
 * Called from report printing, under lockdep_lock, which guards the
 * caches here.  The kernel prints "func+0x1c/0x40 file.c:12" the same
 * way (scripts/decode_stacktrace.sh).
 */
#include "../api.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#ifdef KMUTEX_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <stdlib.h>
#endif

#include "debug.h"
#include "symbolize.h"

#define MAX_MODS	16

/* A module's mapped ELF file and its .symtab (NULL if none). */
struct elf_mod {
	uintptr_t base;			/* dli_fbase: the key */
	uintptr_t bias;			/* l_addr: file address -> memory */
	const unsigned char *map;
	size_t size;
	const ElfW(Sym) *syms;
	size_t nsyms;
	const char *strs;
	size_t strs_size;
};

static struct elf_mod mods[MAX_MODS];
static int nr_mods;

/* The section headers of @m's file, checked to lie inside it. */
static const ElfW(Shdr) *elf_sections(const struct elf_mod *m, int *n)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)m->map;

	if (m->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64
							 : ELFCLASS32) ||
	    eh->e_shentsize != sizeof(ElfW(Shdr)) || !eh->e_shoff ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > m->size)
		return NULL;
	*n = eh->e_shnum;
	return (const ElfW(Shdr) *)(m->map + eh->e_shoff);
}

static void elf_find_symtab(struct elf_mod *m)
{
	const ElfW(Shdr) *sh;
	int i, n;

	sh = elf_sections(m, &n);
	for (i = 0; sh && i < n; i++) {
		const ElfW(Shdr) *s = &sh[i], *str;

		if (s->sh_type != SHT_SYMTAB || s->sh_link >= (unsigned)n)
			continue;
		str = &sh[s->sh_link];
		if (s->sh_offset + s->sh_size > m->size ||
		    str->sh_offset + str->sh_size > m->size)
			return;
		m->syms = (const ElfW(Sym) *)(m->map + s->sh_offset);
		m->nsyms = s->sh_size / sizeof(ElfW(Sym));
		m->strs = (const char *)m->map + str->sh_offset;
		m->strs_size = str->sh_size;
		return;
	}
}

/* The module that holds @ip, mapped on first use; NULL if unknown. */
static struct elf_mod *elf_mod_of(const void *ip, const Dl_info *info)
{
	struct link_map *lm = NULL;
	Dl_info i2;
	struct elf_mod *m;
	struct stat st;
	const char *path;
	int k, fd;
	void *p;

	for (k = 0; k < nr_mods; k++)
		if (mods[k].base == (uintptr_t)info->dli_fbase)
			return mods[k].map ? &mods[k] : NULL;
	if (nr_mods == MAX_MODS ||
	    !dladdr1(ip, &i2, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return NULL;
	m = &mods[nr_mods++];
	m->base = (uintptr_t)info->dli_fbase;
	m->bias = lm->l_addr;
	/* The executable's link_map has no name: its file is /proc's. */
	path = lm->l_name && lm->l_name[0] ? lm->l_name : "/proc/self/exe";
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			 fd, 0);
		if (p != MAP_FAILED) {
			m->map = p;
			m->size = (size_t)st.st_size;
			elf_find_symtab(m);
		}
	}
	close(fd);
	return m->map ? m : NULL;
}

/* The function of @m's .symtab that contains @ip. */
static bool elf_lookup(const struct elf_mod *m, const void *ip,
		       struct sym_info *out)
{
	uintptr_t a = (uintptr_t)ip - m->bias;
	size_t i;

	for (i = 0; i < m->nsyms; i++) {
		const ElfW(Sym) *s = &m->syms[i];

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC ||
		    s->st_shndx == SHN_UNDEF || a < s->st_value ||
		    a - s->st_value >= s->st_size ||
		    s->st_name >= m->strs_size)
			continue;
		out->name = m->strs + s->st_name;
		out->offset = a - s->st_value;
		out->size = s->st_size;
		return true;
	}
	return false;
}

#ifdef KMUTEX_HAVE_LIBDW
static Dwfl *dwfl;
static bool dwfl_failed;
/* An object was unloaded since the module list was last reported. */
static bool dwfl_stale;

/* This process's modules, reported to libdwfl (again after a dlopen). */
static bool dwfl_report(void)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_linux_proc_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
	};

	if (!dwfl)
		dwfl = dwfl_begin(&cb);
	if (!dwfl)
		return false;
	dwfl_report_begin(dwfl);
	if (dwfl_linux_proc_report(dwfl, getpid()) != 0) {
		dwfl_report_end(dwfl, NULL, NULL);
		return false;
	}
	return dwfl_report_end(dwfl, NULL, NULL) == 0;
}

static Dwfl_Module *dw_module(Dwarf_Addr a)
{
	Dwfl_Module *mod;

	/*
	 * After an unload, start over: reporting again keeps a module
	 * whose path and range are unchanged (a plugin rebuilt and loaded
	 * again where it was) with its old ELF data, and /proc/self/maps
	 * still lists libdw's own mapping of an unloaded file.
	 */
	if (dwfl_stale && dwfl) {
		dwfl_end(dwfl);
		dwfl = NULL;
	}
	dwfl_stale = false;
	if (dwfl_failed || (!dwfl && !dwfl_report())) {
		dwfl_failed = true;
		return NULL;
	}
	mod = dwfl_addrmodule(dwfl, a);
	if (!mod && dwfl_report())
		mod = dwfl_addrmodule(dwfl, a);
	return mod;
}

/*
 * Code inlined into the function (a kmutex header's inline wrapper, say)
 * has the inline function's line: take the line of the function's own
 * call of the outermost inlined block, as the frame's name is the
 * function's.  False if @a is in no inlined block.
 */
static bool dw_call_site(Dwfl_Module *mod, Dwarf_Addr a,
			 struct sym_info *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, a, &bias), *scopes = NULL;
	Dwarf_Attribute at;
	Dwarf_Files *files;
	Dwarf_Word file, line;
	int i, n, outer = -1;

	if (!cu)
		return false;
	n = dwarf_getscopes(cu, a - bias, &scopes);
	for (i = 0; i < n; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
			outer = i;
	}
	if (outer < 0 ||
	    dwarf_formudata(dwarf_attr(&scopes[outer], DW_AT_call_file, &at),
			    &file) ||
	    dwarf_formudata(dwarf_attr(&scopes[outer], DW_AT_call_line, &at),
			    &line) ||
	    dwarf_getsrcfiles(cu, &files, NULL) ||
	    !(out->file = dwarf_filesrc(files, file, NULL, NULL))) {
		free(scopes);
		return false;
	}
	out->line = (int)line;
	free(scopes);
	return true;
}

static bool dw_lookup(const void *ip, bool want_name, struct sym_info *out)
{
	Dwarf_Addr a = (Dwarf_Addr)(uintptr_t)ip;
	Dwfl_Module *mod = dw_module(a);
	Dwfl_Line *line;
	GElf_Off off;
	GElf_Sym sym;
	const char *name;
	bool found = false;

	if (!mod)
		return false;
	if (want_name) {
		name = dwfl_module_addrinfo(mod, a, &off, &sym, NULL, NULL,
					    NULL);
		if (name) {
			out->name = name;
			out->offset = off;
			out->size = sym.st_size;
			found = true;
		}
	}
	/* A return address: the line of the call is the byte before. */
	if (dw_call_site(mod, a - 1, out))
		return true;
	line = dwfl_module_getsrc(mod, a - 1);
	if (line) {
		int lineno = 0;

		out->file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL,
					  NULL);
		out->line = lineno;
		found |= out->file != NULL;
	}
	return found;
}
#endif /* KMUTEX_HAVE_LIBDW */

static int unloads_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) +
		    sizeof(info->dlpi_subs))
		*(unsigned long long *)data = info->dlpi_subs;
	return 1;	/* the count is the same in every object's info */
}

/*
 * The caches are keyed by load address, and dlclose() can put another
 * object where a cached one was: then its frames would get the old
 * object's names.  The dynamic linker counts the objects it unloaded
 * (dlpi_subs): when the count moves, forget everything.
 */
static void forget_unloaded(void)
{
	static unsigned long long seen;
	unsigned long long unloads = 0;
	int k;

	dl_iterate_phdr(unloads_cb, &unloads);
	if (unloads == seen)
		return;
	seen = unloads;
	for (k = 0; k < nr_mods; k++)
		if (mods[k].map)
			munmap((void *)mods[k].map, mods[k].size);
	memset(mods, 0, sizeof(mods));
	nr_mods = 0;
#ifdef KMUTEX_HAVE_LIBDW
	dwfl_stale = true;	/* reported again outside a handler */
#endif
}

/**
 * symbolize - what is known of @ip beyond its dynamic symbol
 * @ip: a return address
 * @info: dladdr()'s answer for it
 * @out: filled in: name, offset, size (only if @info has no name),
 *	file and line (where debug information says)
 *
 * Under lockdep_lock.  Return: whether anything was found.
 */
bool symbolize(const void *ip, const Dl_info *info, struct sym_info *out)
{
	bool want_name = !info->dli_sname || !info->dli_saddr;
	struct elf_mod *m;

	memset(out, 0, sizeof(*out));
	forget_unloaded();
#ifdef KMUTEX_HAVE_LIBDW
	if (!lockdep_in_handler && dw_lookup(ip, want_name, out) &&
	    (out->name || !want_name))
		return true;
#endif
	if (!want_name)
		return out->file != NULL;
	m = elf_mod_of(ip, info);
	return (m && m->syms && elf_lookup(m, ip, out)) || out->file;
}
