import type { SessionStore } from '../../domain/sessions/sign-in.js';
import { verifyPassword } from '../passwords.js';
import { createSession, deleteExpiredSessions, endSession, findLiveSession } from './sessions.js';
import { findUserByEmail } from './users.js';

/** The database's sessions and users, and scrypt passwords, behind sign-in. */
export const sessionStore: SessionStore = { createSession, deleteExpiredSessions, endSession, findLiveSession, findUserByEmail, verifyPassword };
