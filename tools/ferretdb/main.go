// Command ferretdb-embedded runs FerretDB v1 (MongoDB wire protocol on SQLite)
// for alarm-hub's tests and its zero-configuration default.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCP address to listen on")
	dir := flag.String("dir", "", "directory for the SQLite files (created when missing)")
	watchStdin := flag.Bool("exit-with-stdin", false, "stop when standard input closes (the parent process died)")
	flag.Parse()
	if *dir == "" {
		log.Fatal("-dir is required")
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		log.Fatal(err)
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/",
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if *watchStdin {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	// ALARMHUB_ENGINE_CPU_PROFILE=<file>: SIGUSR1 starts a Go CPU profile of the engine, SIGUSR2 writes it
	// to the file (`go tool pprof -top <binary> <file>`): where a benchmark's database time goes.
	if file := os.Getenv("ALARMHUB_ENGINE_CPU_PROFILE"); file != "" {
		go profileOnSignal(file)
	}
	done := make(chan struct{})
	go func() {
		f.Run(ctx)
		close(done)
	}()
	go indexIDPaths(ctx, abs, time.Second)
	// The parent reads this one line to learn the address when -listen used port 0.
	fmt.Println(f.MongoDBURI())
	<-done
}

func profileOnSignal(file string) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGUSR1, syscall.SIGUSR2)
	var out *os.File
	for sig := range signals {
		switch {
		case sig == syscall.SIGUSR1 && out == nil:
			f, err := os.Create(file)
			if err != nil {
				log.Printf("alarm-hub: CPU profile: %v", err)
				continue
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				log.Printf("alarm-hub: CPU profile: %v", err)
				_ = f.Close()
				continue
			}
			out = f
		case sig == syscall.SIGUSR2 && out != nil:
			pprof.StopCPUProfile()
			_ = out.Close()
			out = nil
		}
	}
}
