/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The start barrier between the main thread and the clients.
 */
#include <config.h>
#include "gate.h"

void gate_init(struct gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->arrived_cond, NULL);
	pthread_cond_init(&g->open_cond, NULL);
	g->arrived = 0;
	g->generation = 0;
}

void gate_arrive(struct gate *g)
{
	unsigned int gen;

	pthread_mutex_lock(&g->lock);
	gen = g->generation;
	g->arrived++;
	pthread_cond_signal(&g->arrived_cond);
	while (gen == g->generation)
		pthread_cond_wait(&g->open_cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void gate_wait(struct gate *g, unsigned int n)
{
	pthread_mutex_lock(&g->lock);
	while (g->arrived < n)
		pthread_cond_wait(&g->arrived_cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->arrived = 0;
	g->generation++;
	pthread_cond_broadcast(&g->open_cond);
	pthread_mutex_unlock(&g->lock);
}

void gate_release(struct gate *g)
{
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->arrived_cond);
	pthread_cond_destroy(&g->open_cond);
}
