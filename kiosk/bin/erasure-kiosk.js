#!/usr/bin/env node
import '../dist/main/main.js';
