import { useEffect, useRef, useState } from 'react';
import { Verdict } from './verdict.js';

type Camera = { state: 'starting' } | { state: 'live'; label: string } | { state: 'unavailable'; why: string };

/** A live preview from the first camera; without one, the operator marks the test. */
export function WebcamTest() {
  const video = useRef<HTMLVideoElement>(null);
  const [camera, setCamera] = useState<Camera>({ state: 'starting' });
  // Bumped by Try again: the effect releases the old stream and asks for the camera anew.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    setCamera({ state: 'starting' });
    let stream: MediaStream | undefined;
    let cancelled = false;
    const media = navigator.mediaDevices;
    if (!media?.getUserMedia) {
      setCamera({ state: 'unavailable', why: 'this screen cannot use cameras' });
      return;
    }
    media.getUserMedia({ video: true, audio: false }).then(
      (s) => {
        // The runner may have closed while the camera was starting: release it at once.
        if (cancelled) return s.getTracks().forEach((t) => t.stop());
        stream = s;
        if (video.current) video.current.srcObject = s;
        setCamera({ state: 'live', label: s.getVideoTracks()[0]?.label || 'camera' });
      },
      (e: unknown) => !cancelled && setCamera({ state: 'unavailable', why: e instanceof Error && e.name === 'NotFoundError' ? 'no camera found' : `the camera could not start (${e instanceof Error ? e.name : String(e)})` }),
    );
    return () => {
      cancelled = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [attempt]);
  return (
    <div className="runner">
      <video ref={video} className={camera.state === 'live' ? 'webcam' : 'webcam hidden'} autoPlay muted playsInline aria-label="Camera preview" />
      <p role="status" className={camera.state === 'unavailable' ? 'error' : 'muted'}>
        {camera.state === 'starting' ? 'Starting the camera…' : camera.state === 'live' ? `Showing ${camera.label}. Is the picture clear?` : `No picture: ${camera.why}.`}
      </p>
      {camera.state !== 'starting' && (
        <div className="row">
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            {camera.state === 'unavailable' ? 'Try the camera again' : 'Restart the camera'}
          </button>
        </div>
      )}
      <Verdict id="webcam" detail={camera.state === 'live' ? camera.label : camera.state === 'unavailable' ? camera.why : undefined} />
    </div>
  );
}
