import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError, api, type TaskList, type TaskView } from "./api";

/** How often the list is read again (ms). */
const POLL_MS = 1000;
/** How many of the caller's tasks the table shows (newest first). */
const SHOWN = 10;

const progressOf = (t: TaskView): string => {
  const p = t.progress;
  if (!p) return "–";
  const part = p.total ? `${p.progress}/${p.total}` : String(p.progress);
  return p.message ? `${part}: ${p.message}` : part;
};

/**
 * The caller's tasks (`GET /tasks`: only those of the principal the page calls as), with status and
 * progress, and a button that cancels a working one (`DELETE /tasks/:id`). Hidden when the host runs
 * no tasks (404).
 */
export const RunningTasks = (props: { principal: string | null }) => {
  const [list, setList] = useState<ReadonlyArray<TaskView> | undefined>();
  const [error, setError] = useState<string | undefined>();
  const read = useCallback(() => {
    api<TaskList>("/tasks").then(
      (page) => {
        setList(page.tasks);
        setError(undefined);
      },
      (e: Error) => (e instanceof ApiError && e.status === 404 ? setList(undefined) : setError(e.message)),
    );
  }, []);
  useEffect(() => {
    read();
    // A plain interval, not effect's Schedule: the console is a small Preact page that ships no effect.
    const timer = setInterval(read, POLL_MS);
    return () => clearInterval(timer);
  }, [read, props.principal]);
  const cancel = (id: string) =>
    api(`/tasks/${encodeURIComponent(id)}`, { method: "DELETE" }).then(read, (e: Error) =>
      setError(e.message),
    );

  if (list === undefined && !error) return null;
  return (
    <section aria-labelledby="tasks-title" class="panel">
      <h2 id="tasks-title">Your tasks</h2>
      {error && <p role="alert">{error}</p>}
      {list && list.length === 0 ? (
        <p class="muted">
          {props.principal ? "No tasks yet." : "Tasks are listed per principal: this page calls as none."}
        </p>
      ) : (
        <div class="table-wrap">
          <table class="tasks" data-tasks>
            <thead>
              <tr>
                <th scope="col">started</th>
                <th scope="col">tool</th>
                <th scope="col">status</th>
                <th scope="col">progress</th>
                <th scope="col">action</th>
              </tr>
            </thead>
            <tbody>
              {(list ?? []).slice(0, SHOWN).map((t) => (
                <tr key={t.id} data-task={t.status}>
                  <td>{new Date(t.createdAt).toLocaleTimeString()}</td>
                  <td>{t.tool}</td>
                  <td>
                    <span class={`status task-${t.status}`}>{t.status}</span>
                  </td>
                  <td>{progressOf(t)}</td>
                  <td>
                    {t.status === "working" && (
                      <button type="button" onClick={() => void cancel(t.id)} aria-label={`Cancel ${t.tool}`}>
                        Cancel
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
};
