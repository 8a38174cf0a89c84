/**
 * What every Quotaflow process shares, so that it is written once: the connection flags of every
 * command ({@link io.quotaflow.process.ConnectionOptions}), the node and cgroup flags of every node
 * process ({@link io.quotaflow.process.NodeOptions}, {@link io.quotaflow.process.NodeName}), how a
 * command line runs and exits ({@link io.quotaflow.process.ProcessCommandLine}) and how a process
 * stops ({@link io.quotaflow.process.ProcessLifecycle}). Each process's {@code main} and its
 * {@code quotaflow} subcommand are one picocli command built on these. Plumbing only: nothing here
 * decides anything about tasks, pools or cgroups values.
 */
package io.quotaflow.process;
