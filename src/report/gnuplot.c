/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Talking to gnuplot: the pieces of a script that every chart shares
 * (strings escaped, the terminal, a log y axis) and drawing a finished
 * script into a file through gnuplot, found in PATH at run time, on a
 * pipe, so that a chart is either complete or not there at all.
 */
#include <config.h>
#include "report/gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/msg.h"
#include "workdir/outfile.h"

/*
 * @s as a gnuplot double-quoted string. Anything but letters, digits and
 * a few harmless characters becomes an octal escape, so that no quote,
 * backslash, newline, backquote (command substitution) or '@' (macro)
 * from a file name reaches gnuplot's parser.
 */
void gnuplot_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr(" ._-+,:/=()[]#", *p))
			fputc(*p, out);
		else
			fprintf(out, "\\%03o", *p);
	}
	fputc('"', out);
}

/*
 * A logarithmic y axis from @bottom to @top (the smallest and largest
 * positive values to show), with a third of a decade to spare at each
 * end; [1:10] when there is no positive value.
 */
void gnuplot_log_yrange(FILE *out, double bottom, double top)
{
	if (!(bottom > 0) || !(top >= bottom)) {
		bottom = 1;
		top = 10;
	}
	fprintf(out, "set logscale y 10\nset yrange [%.10g:%.10g]\n",
		bottom / 2, top * 2);
}

/* The encoding and the terminal of @output's suffix, @w x @h pixels. */
static void gnuplot_terminal(FILE *out, const char *output, unsigned int w,
			     unsigned int h)
{
	const char *dot = strrchr(output, '.');

	fprintf(out, "set encoding utf8\n");
	if (dot && !strcmp(dot, ".png"))
		fprintf(out,
			"if (strstrt(GPVAL_TERMINALS, \" pngcairo \") > 0) {\n"
			"\tset terminal pngcairo size %u,%u noenhanced background rgb \"white\"\n"
			"} else {\n"
			"\tset terminal png size %u,%u noenhanced background rgb \"white\"\n"
			"}\n",
			w, h, w, h);
	else
		fprintf(out,
			"set terminal svg size %u,%u noenhanced background rgb \"white\"\n",
			w, h);
}

FILE *gnuplot_begin(char **buf, size_t *len, const char *output, unsigned int w,
		    unsigned int h)
{
	FILE *out = open_memstream(buf, len);

	if (!out)
		die("open_memstream: %s", strerror(errno));
	gnuplot_terminal(out, output, w, h);
	return out;
}

void gnuplot_end(FILE *out)
{
	if (fclose(out))
		die("open_memstream: %s", strerror(errno));
}

/* Write all of @buf to @fd; 0 or -errno (EPIPE: gnuplot went away). */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The child: gnuplot reading the script on stdin and writing the chart on
 * stdout (@out); exec's errno on @status.
 */
static void NORETURN exec_gnuplot(int in, int out, int status)
{
	char *const argv[] = { (char *)"gnuplot", NULL };
	int err;

	if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0) {
		err = errno;
	} else {
		execvp(argv[0], argv);
		err = errno;
	}
	if (write(status, &err, sizeof(err)) != sizeof(err))
		_exit(126);
	_exit(127);
}

/* Wait for @pid; its exit status, or -1 with a message. */
static int wait_gnuplot(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return error("waitpid: %s", strerror(errno));
	if (WIFSIGNALED(st))
		return error("gnuplot was killed by signal %d", WTERMSIG(st));
	return WEXITSTATUS(st);
}

/*
 * Run gnuplot with @script on its stdin and @out as its stdout. A gnuplot
 * that cannot be executed is reported through a close-on-exec pipe: it
 * stays silent when exec succeeds. Returns 0 or -1 with a message.
 */
static int run_gnuplot(const char *script, size_t len, int out)
{
	int in[2], status[2], err = 0, ret;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	ssize_t n;
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) || pipe2(status, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid)
		exec_gnuplot(in[0], out, status[1]);
	close(in[0]);
	close(status[1]);
	do
		n = read(status[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(status[0]);
	if (n == sizeof(err)) {
		close(in[1]);
		wait_gnuplot(pid);
		if (err == ENOENT)
			return error(
				"gnuplot is not installed: apt-get install gnuplot-nox");
		return error("cannot run gnuplot: %s", strerror(err));
	}
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	err = write_all(in[1], script, len);
	close(in[1]);
	sigaction(SIGPIPE, &old, NULL);
	ret = wait_gnuplot(pid);
	if (ret > 0)
		return error("gnuplot failed (exit status %d)", ret);
	if (!ret && err)
		return error("cannot write to gnuplot: %s", strerror(-err));
	return ret;
}

/*
 * Draw @script (@len bytes) into @output, a result file (workdir/outfile.h):
 * a regular file is drawn into "OUTPUT.tmpPID", renamed when gnuplot
 * succeeded, so a failed plot leaves nothing behind; anything else is
 * drawn into. Frees @script.
 */
int gnuplot_draw(char *script, size_t len, const char *output)
{
	struct outfile o;
	struct stat st;
	int ret;

	if (!outfile_open(&o, output)) {
		free(script);
		return -1;
	}
	ret = run_gnuplot(script, len, o.fd);
	free(script);
	/* a device or a FIFO has no size to check */
	if (!ret && (fstat(o.fd, &st) || (S_ISREG(st.st_mode) && !st.st_size)))
		ret = error("gnuplot wrote no chart to '%s'",
			    o.direct ? output : o.tmp);
	if (ret) {
		outfile_abort(&o);
		return ret;
	}
	return outfile_commit(&o);
}
